-- Heartbeats (issue 15): an attempt of a step that declares a heartbeat expires when its agent stays silent
-- longer than that, as it does when its complete-by passes. Set when such an attempt starts, moved on by
-- each of its agent's beats, cleared with the attempt. The supervisor's sweep reads it beside complete_by;
-- this index holds only running attempts that have one.
ALTER TABLE order_state ADD COLUMN heartbeat_by TIMESTAMPTZ;
CREATE INDEX order_state_heartbeat ON order_state (heartbeat_by) WHERE locked_by IS NOT NULL AND heartbeat_by IS NOT NULL;
