-- Tracing (issue 28): the W3C traceparent of the span that submitted the order, so that every later span —
-- a claim on another instance, a retry the supervisor starts an hour later, an operator's action — joins the
-- order's one trace across the waits in this table. Written once, by the submission's transaction; null when
-- tracing is off (nothing is recorded then). 55 characters: version 00's fixed length, the only one kept.
ALTER TABLE order_state ADD COLUMN trace_parent VARCHAR(55);
