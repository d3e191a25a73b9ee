-- Bulk actions (issue 29): an operator's action on every order (or dead letter) a filter matched, run in
-- the background by whichever instance holds the job's lease (a job_lease row named 'bulk-<id>').
-- The targets are fixed when the job starts, one bulk_item each: what the operator previewed and
-- confirmed, not whatever matches later. An item is acted on in one transaction with its outcome, so a
-- job taken over after a crash, or run twice, acts on each target once.
CREATE TABLE bulk_job (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action       VARCHAR(16)   NOT NULL,
    state        VARCHAR(16)   NOT NULL,   -- Running, Cancelled, Finished
    operator     VARCHAR(128)  NOT NULL,
    reason       VARCHAR(500)  NOT NULL,
    selection    TEXT          NOT NULL,   -- the filter or the selected set, as the operator gave it (JSON)
    rate         INT           NOT NULL,   -- actions per second at most
    total        INT           NOT NULL,
    done         INT           NOT NULL DEFAULT 0,
    skipped      INT           NOT NULL DEFAULT 0,
    failed       INT           NOT NULL DEFAULT 0,
    created_at   TIMESTAMPTZ   NOT NULL,
    updated_at   TIMESTAMPTZ   NOT NULL,
    finished_at  TIMESTAMPTZ,
    ended_by     VARCHAR(128),
    ended_reason VARCHAR(500)
);
CREATE INDEX bulk_job_running ON bulk_job (id) WHERE state = 'Running';

CREATE TABLE bulk_item (
    job_id   BIGINT       NOT NULL REFERENCES bulk_job (id) ON DELETE CASCADE,
    seq      INT          NOT NULL,
    target   VARCHAR(64)  NOT NULL,
    outcome  VARCHAR(8),                  -- null while pending; done, skipped, failed
    detail   VARCHAR(300),                -- why it was skipped or failed, or what it did
    acted_at TIMESTAMPTZ,
    PRIMARY KEY (job_id, seq),
    UNIQUE (job_id, target)               -- an order matched twice is one item: acted on once
);
CREATE INDEX bulk_item_pending ON bulk_item (job_id, seq) WHERE outcome IS NULL;

-- A bulk release: an order parked on a paused operation is let through that pause for its next attempt
-- of the operation (only that one; the pause holds everything else). Cleared when that attempt starts.
ALTER TABLE order_state ADD COLUMN released_from VARCHAR(64);
