package io.overseer.bench.scale;

/**
 * The state store's hot queries, as SQL. They MIRROR io.overseer.statestore.StateStore (ejb-module) and
 * must be kept in sync with it: a change there that is not made here makes ScaleProbe time a query the
 * application no longer runs. Written as the application sends them, with now() where it binds "now".
 */
final class StateStoreQueries {

    private StateStoreQueries() {
    }

    /** A batch claim of work: Pending, or Compensating with nobody on it, due, oldest first. */
    static final String CLAIM = "SELECT order_id FROM order_state"
            + " WHERE (process_state = 'Pending' OR (process_state = 'Compensating' AND locked_by IS NULL))"
            + " AND (not_before IS NULL OR not_before <= now())"
            + " ORDER BY updated_at LIMIT 100 FOR UPDATE SKIP LOCKED";

    /**
     * StateStore.lockClaimable: the claim restricted to the ids of a batch of dispatch hints, locked in id
     * order (the application binds one parameter per id; one array parameter here plans the same way).
     */
    static final String CLAIM_BY_IDS = "SELECT order_id FROM order_state"
            + " WHERE (process_state = 'Pending' OR (process_state = 'Compensating' AND locked_by IS NULL))"
            + " AND (not_before IS NULL OR not_before <= now())"
            + " AND order_id = ANY(?)"
            + " ORDER BY order_id FOR UPDATE SKIP LOCKED";

    /** The supervisor's sweep for claimed records whose complete-by has passed (StateStore.expired). */
    static final String SWEEP = "SELECT order_id FROM order_state"
            + " WHERE locked_by IS NOT NULL AND complete_by < now()"
            + " ORDER BY complete_by LIMIT 200";

    /**
     * Sweeps.STRANDED_SQL: the claimable records untouched (and due) for 10 s (the poller's threshold), limit bound
     * by the caller (100 here); read without a lock, then claimed by id (CLAIM_BY_IDS).
     */
    static final String STRANDED = "SELECT order_id FROM order_state"
            + " WHERE (process_state = 'Pending' OR (process_state = 'Compensating' AND locked_by IS NULL))"
            + " AND paused_on IS NULL AND updated_at < now() - interval '10 seconds'"
            + " AND (not_before IS NULL OR not_before < now() - interval '10 seconds')"
            + " ORDER BY updated_at LIMIT 100";
}
