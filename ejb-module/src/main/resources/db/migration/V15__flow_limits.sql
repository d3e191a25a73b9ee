-- Flow limits per remote operation, cluster-wide (issue 15). A claim that would start an attempt of a limited
-- operation locks that operation's row here first, so that the instances admit its attempts one transaction
-- at a time: it counts the attempts running now (order_state.running_operation, set only for limited
-- operations) and the starts of the current second on the database clock (window_start, window_starts).
CREATE TABLE flow_limit (
    operation      VARCHAR(64)  PRIMARY KEY,
    window_start   TIMESTAMPTZ,
    window_starts  INT          NOT NULL DEFAULT 0
);
ALTER TABLE order_state ADD COLUMN running_operation VARCHAR(64);
ALTER TABLE order_state ADD COLUMN throttled_on VARCHAR(64);
-- Both hold rows of limited operations only: nothing for the others, so unlimited work pays nothing.
CREATE INDEX order_state_running_operation ON order_state (running_operation) WHERE running_operation IS NOT NULL;
CREATE INDEX order_state_throttled ON order_state (throttled_on, not_before) WHERE throttled_on IS NOT NULL;
