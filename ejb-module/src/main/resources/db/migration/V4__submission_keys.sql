-- Idempotent submission (HTTP Idempotency-Key, JMS business keys) and the order listing.

-- Which order each client key created. scope = channel and authenticated caller ("http:alice"), so two
-- callers never share keys; fingerprint = SHA-256 of the canonical request, to refuse a reused key with
-- another body. Written in the order's transaction; the foreign key is checked at commit, because the
-- key row is inserted first (that insert is what serialises concurrent retries).
CREATE TABLE submission_key (
    scope       VARCHAR(200)  NOT NULL,
    idem_key    VARCHAR(255)  NOT NULL,
    fingerprint CHAR(64)      NOT NULL,
    order_id    VARCHAR(36)   NOT NULL REFERENCES customer_order (order_id) DEFERRABLE INITIALLY DEFERRED,
    created_at  TIMESTAMPTZ   NOT NULL,
    PRIMARY KEY (scope, idem_key)
);
-- The purge deletes keys older than the retention.
CREATE INDEX submission_key_created ON submission_key (created_at);
INSERT INTO job_lease (name, holder, expires_at) VALUES ('submission-key-purge', NULL, TIMESTAMPTZ '1970-01-01 00:00:00+00');

-- GET /api/orders pages by (created_at, order_id), with or without a state filter.
CREATE INDEX order_state_listing ON order_state (created_at, order_id);
CREATE INDEX order_state_listing_by_state ON order_state (process_state, created_at, order_id);
