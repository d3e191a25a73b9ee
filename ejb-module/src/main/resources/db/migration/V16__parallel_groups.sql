-- Parallel groups (issue 15): the steps of a group run at once, so an attempt's fence, heartbeat and flow-limit
-- slot belong to its step, not to the order. order_state keeps locked_by, complete_by and heartbeat_by as a
-- summary of its running steps (any owner, the earliest deadlines), which is what the supervisor's sweep and
-- its indexes read; the epoch counter stays on the order, so epochs never repeat within an order.
ALTER TABLE step_state ADD COLUMN epoch BIGINT;
ALTER TABLE step_state ADD COLUMN heartbeat_by TIMESTAMPTZ;
ALTER TABLE step_state ADD COLUMN running_operation VARCHAR(64);
-- When the step last completed (or was abandoned, its outcome unknown), as its order's history count then:
-- compensation undoes steps newest first by this rank, which for branches is not their order in the workflow.
ALTER TABLE step_state ADD COLUMN done_rank INT;
-- A branch waiting for its retry keeps its own backoff: the order's not_before is the earliest of its waiting
-- branches', and a claim starts only those that are due.
ALTER TABLE step_state ADD COLUMN not_before TIMESTAMPTZ;

-- An attempt running across the upgrade keeps its fence and its heartbeat on its step.
UPDATE step_state s SET epoch = o.epoch, heartbeat_by = o.heartbeat_by, running_operation = o.running_operation
  FROM order_state o WHERE s.order_id = o.order_id AND s.locked_by IS NOT NULL;

-- The flow limit counts running attempts per step now (two branches of one order may each hold a slot).
DROP INDEX order_state_running_operation;
ALTER TABLE order_state DROP COLUMN running_operation;
CREATE INDEX step_state_running_operation ON step_state (running_operation) WHERE running_operation IS NOT NULL;

-- The per-second flow limit is also kept where calls start (io.overseer.agent.CallPacer): a claim starts an
-- attempt, but an agent may call several times in one attempt (transient faults) and an attempt may wait in
-- the broker before its first call, so the agents count the calls' own starts, per second of the database
-- clock, in this second window.
ALTER TABLE flow_limit ADD COLUMN call_window_start TIMESTAMPTZ;
ALTER TABLE flow_limit ADD COLUMN call_window_starts INT NOT NULL DEFAULT 0;
