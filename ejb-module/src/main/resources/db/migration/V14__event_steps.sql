-- Steps that wait for an external event (issue 15): the event's JSON body, kept with the step that received
-- it, from where every later attempt of the order hands it to its agent. Null for every other step.
ALTER TABLE step_state ADD COLUMN event_payload TEXT;
