-- Recurring schedules (issue 43, recurring/): one row per schedule. Its position (the next due tick, its
-- fire time after jitter, a buffered tick) is advanced in the transaction that submits the tick's order,
-- whose idempotency key is the schedule and the tick (scope 'schedule:<id>'): a second instance, or a retry
-- after a crash, can create no second order for a tick. Each order carries the attributes schedule and
-- schedule.tick, which link a tick to its order.
CREATE TABLE schedule (
    schedule_id        VARCHAR(64)   PRIMARY KEY,
    workflow           VARCHAR(64)   NOT NULL,
    order_body         TEXT          NOT NULL,
    cron               VARCHAR(200),
    every_ms           BIGINT,
    zone               VARCHAR(64)   NOT NULL,
    starts_at          TIMESTAMPTZ,
    ends_at            TIMESTAMPTZ,
    missed             VARCHAR(16)   NOT NULL,
    catch_up_window_ms BIGINT,
    catch_up_max       INTEGER,
    overlap            VARCHAR(16)   NOT NULL,
    dst_repeated       VARCHAR(8)    NOT NULL,
    dst_missing        VARCHAR(8)    NOT NULL,
    jitter_ms          BIGINT        NOT NULL DEFAULT 0,
    next_due           TIMESTAMPTZ,
    fire_at            TIMESTAMPTZ,
    buffered           TIMESTAMPTZ,
    last_tick          TIMESTAMPTZ,
    last_order_id      VARCHAR(36),
    fired_count        BIGINT        NOT NULL DEFAULT 0,
    missed_count       BIGINT        NOT NULL DEFAULT 0,
    overlapped_count   BIGINT        NOT NULL DEFAULT 0,
    paused_reason      VARCHAR(500),
    pause_after_failures INTEGER,
    failures_in_row    INTEGER       NOT NULL DEFAULT 0,
    judged_order_id    VARCHAR(36),
    created_at         TIMESTAMPTZ   NOT NULL,
    updated_at         TIMESTAMPTZ   NOT NULL,
    version            BIGINT        NOT NULL DEFAULT 0,
    CONSTRAINT schedule_one_cadence CHECK ((cron IS NULL) <> (every_ms IS NULL))
);

-- What the tick poller reads every second: the schedules whose next tick may fire, soonest first. A schedule
-- paused or ended is not in it, so the poll costs the same however many schedules wait.
CREATE INDEX schedule_firing ON schedule (fire_at) WHERE fire_at IS NOT NULL AND paused_reason IS NULL;
