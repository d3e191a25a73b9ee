-- Delayed start (issue 15): an order may be submitted with a not-before instant; not_before already held a
-- retry's backoff and a cancelled attempt's wait. Every instance looks each second for waiting records
-- whose not-before has passed and claims them at once, so a delay ends when it says and not when the
-- stranded-order poller next comes by. Only waiting records ever hold a not-before (a claim, a finish and
-- an Error clear it), so the index stays as small as the set of delayed orders.
CREATE INDEX order_state_due ON order_state (not_before)
    WHERE not_before IS NOT NULL AND paused_on IS NULL;
