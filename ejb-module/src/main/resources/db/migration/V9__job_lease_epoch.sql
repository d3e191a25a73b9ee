-- A fencing token for each lease (issue 10). A holder that was paused (GC, SIGSTOP, a slow disk) past its
-- expiry may wake still believing it holds the lease while another instance has taken it over; the time
-- it read before the pause proves nothing. The epoch counts changes of holder, and every write a lease
-- protects first checks, in its own transaction and under a share lock of this row, that its holder and
-- epoch are still the row's: a take-over then waits for writes in flight, and a deposed holder's writes
-- find another epoch and are refused.
ALTER TABLE job_lease ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
