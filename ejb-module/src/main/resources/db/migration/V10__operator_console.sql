-- The operator console (issue 12).

-- Pausing dispatch: while a row names an operation (or 'all'), no scheduler starts an attempt calling it.
-- An order whose next attempt is paused is parked: it waits (Pending, or Compensating with nobody on it)
-- with paused_on naming what it waits for, holds no complete-by, so the supervisor never counts the wait
-- as a failure, and is not claimable until a resume clears paused_on and announces it again.
CREATE TABLE dispatch_pause (
    scope     VARCHAR(64)   PRIMARY KEY,
    paused_by VARCHAR(128)  NOT NULL,
    reason    VARCHAR(500)  NOT NULL,
    paused_at TIMESTAMPTZ   NOT NULL
);
ALTER TABLE order_state ADD COLUMN paused_on VARCHAR(64);
CREATE INDEX order_state_paused ON order_state (paused_on) WHERE paused_on IS NOT NULL;
-- Claimable now also means not parked: the poller's index holds only what it may claim.
DROP INDEX order_state_claimable;
CREATE INDEX order_state_claimable ON order_state (updated_at)
    WHERE (process_state = 'Pending' OR (process_state = 'Compensating' AND locked_by IS NULL)) AND paused_on IS NULL;

-- Finished orders by the time they finished (a final state never changes again): the overview's
-- throughput and failures per minute. One index entry per order, written once when it finishes.
CREATE INDEX order_state_finished ON order_state (updated_at)
    WHERE process_state IN ('Processed', 'Compensated', 'Error');

-- What operators did that is not an order's own history: pauses, resumes, dead-letter redrives and
-- deletions (order actions are written here too, beside the order's history, so that one log shows all).
CREATE TABLE admin_audit (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at       TIMESTAMPTZ   NOT NULL,
    operator VARCHAR(128)  NOT NULL,
    action   VARCHAR(32)   NOT NULL,
    target   VARCHAR(300)  NOT NULL,
    reason   VARCHAR(500)  NOT NULL,
    outcome  VARCHAR(1000)
);
CREATE INDEX admin_audit_at ON admin_audit (at);

-- Which instances are alive: each beats its row every few seconds; the console shows what each holds.
CREATE TABLE scheduler_instance (
    instance_id VARCHAR(128) PRIMARY KEY,
    started_at  TIMESTAMPTZ  NOT NULL,
    last_seen   TIMESTAMPTZ  NOT NULL
);

-- What the supervisor's last sweep that found work recovered, written by the lease's holder.
ALTER TABLE job_lease ADD COLUMN last_run_at TIMESTAMPTZ;
ALTER TABLE job_lease ADD COLUMN last_run_note VARCHAR(300);
