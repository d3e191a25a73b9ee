-- Status notifications: where a submitter wants to hear about its order (its JMS reply-to, or the
-- replyTo of a REST order) and the correlation id each notification carries. One row per order that
-- asked; none for the others.
CREATE TABLE order_reply_to (
    order_id         VARCHAR(36)  PRIMARY KEY
        -- Deferred: the row is written in the order's transaction, and JPA does not promise to insert
        -- it after the order.
        REFERENCES customer_order (order_id) DEFERRABLE INITIALLY DEFERRED,
    destination      VARCHAR(200) NOT NULL,
    destination_type VARCHAR(16)  NOT NULL
        CHECK (destination_type IN ('QUEUE', 'TOPIC', 'TEMPORARY_QUEUE', 'TEMPORARY_TOPIC')),
    correlation_id   VARCHAR(200) NOT NULL,
    created_at       TIMESTAMPTZ  NOT NULL
);

-- Business keys of order-queue messages (the idempotencyKey property): which order each key of a
-- broker user created. scope = "jms:" + the broker-validated user, so two users never share keys;
-- fingerprint = SHA-256 of the canonical order, to refuse a reused key with another order. Written in
-- the order's transaction, before the order (that insert serialises concurrent resends), hence the
-- deferred foreign key.
CREATE TABLE message_key (
    scope       VARCHAR(200)  NOT NULL,
    idem_key    VARCHAR(200)  NOT NULL,
    fingerprint CHAR(64)      NOT NULL,
    order_id    VARCHAR(36)   NOT NULL REFERENCES customer_order (order_id) DEFERRABLE INITIALLY DEFERRED,
    created_at  TIMESTAMPTZ   NOT NULL,
    PRIMARY KEY (scope, idem_key)
);
