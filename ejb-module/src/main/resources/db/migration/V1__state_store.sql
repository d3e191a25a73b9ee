-- The orders database and the state store of the Scheduler Agent Supervisor pattern.
-- Timestamps are timestamptz (UTC instants); states are stored as their enum names.

CREATE TABLE customer_order (
    order_id    VARCHAR(36)  PRIMARY KEY,
    customer_id VARCHAR(100) NOT NULL,
    created_at  TIMESTAMPTZ  NOT NULL
);

CREATE TABLE order_line (
    order_id VARCHAR(36) NOT NULL REFERENCES customer_order (order_id),
    line_no  INT         NOT NULL,
    sku      VARCHAR(64) NOT NULL,
    quantity INT         NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (order_id, line_no)
);

-- The task-level state record of the pattern: OrderID, LockedBy, CompleteBy, ProcessState, FailureCount.
-- epoch counts claims; every reply names the epoch it answers, so a late reply of an abandoned
-- attempt cannot change the state of a newer one (fencing).
CREATE TABLE order_state (
    order_id      VARCHAR(36)   PRIMARY KEY REFERENCES customer_order (order_id),
    workflow      VARCHAR(64)   NOT NULL,
    process_state VARCHAR(16)   NOT NULL
        CHECK (process_state IN ('Pending', 'Processing', 'Processed', 'Error')),
    locked_by     VARCHAR(128),
    complete_by   TIMESTAMPTZ,
    failure_count INT           NOT NULL DEFAULT 0,
    epoch         BIGINT        NOT NULL DEFAULT 0,
    last_error    VARCHAR(1000),
    created_at    TIMESTAMPTZ   NOT NULL,
    updated_at    TIMESTAMPTZ   NOT NULL,
    version       BIGINT        NOT NULL DEFAULT 0
);

-- The supervisor looks for Processing records whose complete-by has passed; the scheduler's poller
-- looks for Pending records nobody claimed. Both read through this index.
CREATE INDEX order_state_due ON order_state (process_state, complete_by);

-- One record per step of the task's workflow.
CREATE TABLE step_state (
    step_id    VARCHAR(48)  PRIMARY KEY,
    order_id   VARCHAR(36)  NOT NULL REFERENCES order_state (order_id),
    seq        INT          NOT NULL,
    name       VARCHAR(64)  NOT NULL,
    state      VARCHAR(16)  NOT NULL
        CHECK (state IN ('NotStarted', 'Running', 'Completed', 'Failed')),
    attempts   INT          NOT NULL DEFAULT 0,
    updated_at TIMESTAMPTZ  NOT NULL,
    UNIQUE (order_id, seq)
);

-- A lease row per cluster-wide singleton job: whoever holds an unexpired lease does the work.
CREATE TABLE job_lease (
    name       VARCHAR(64)  PRIMARY KEY,
    holder     VARCHAR(128),
    expires_at TIMESTAMPTZ  NOT NULL
);
INSERT INTO job_lease (name, holder, expires_at) VALUES ('supervisor', NULL, TIMESTAMPTZ '1970-01-01 00:00:00+00');
