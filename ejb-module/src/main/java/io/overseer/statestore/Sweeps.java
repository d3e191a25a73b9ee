package io.overseer.statestore;

import io.overseer.platform.NativeParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * What the safety nets look for: the waiting orders nothing announced (the schedulers' polls of stranded and
 * of due orders) and the attempts whose deadline passed (the supervisor's sweep). Ids only, read without a
 * lock: each is then claimed or recovered under its lock by {@link StateStore}, which re-checks it, so two
 * instances reading the same ids never act on one twice. Each statement reads a partial index that holds
 * live rows only, so a sweep costs the same however many orders have finished.
 */
@ApplicationScoped
public class Sweeps {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    /**
     * The records a lost hint strands: waiting as a whole. The index order_state_claimable holds exactly
     * these; a waiting branch of a running order holds a not-before, and the due-order poller finds it.
     */
    static final String WAITING = "(process_state = 'Pending' OR (process_state = 'Compensating' AND locked_by IS NULL))"
            + " AND paused_on IS NULL AND (not_before IS NULL OR not_before <= ?1)";

    /**
     * Ids of up to {@code limit} claimable records untouched since {@code before} — orders whose dispatch
     * hint was lost — oldest first. Not locked: the caller claims them with {@link StateStore#lockClaimable},
     * which locks, skips rows another transaction holds and re-checks that each is still claimable, so two
     * pollers reading the same ids never claim one twice. Reads the partial index order_state_claimable,
     * which holds live rows only.
     */
    public List<String> stranded(OffsetDateTime before, OffsetDateTime now, int limit) {
        return ids(STRANDED_SQL, now, before, limit);
    }

    /**
     * The poller's query; public so that the database tests run the very text the product runs. A record
     * with a not-before counts as stranded only once it has been due for as long as an untouched one
     * waits: until then it is the due-order poller's, which comes every second (a delayed start untouched
     * since its submission would otherwise be taken by whichever poller came first once it fell due).
     */
    public static final String STRANDED_SQL = "SELECT order_id FROM order_state WHERE " + WAITING
            + " AND updated_at < ?2 AND (not_before IS NULL OR not_before < ?2) ORDER BY updated_at LIMIT ?3";

    /**
     * Ids of up to {@code limit} claimable records whose not-before (a delayed start, a retry's backoff, a
     * cancelled attempt's wait) has passed, longest due first. Not locked, as {@link #stranded}. Reads the
     * partial index order_state_due (V11): only waiting records hold a not-before.
     */
    public List<String> due(OffsetDateTime now, int limit) {
        return ids(DUE_SQL, now, limit);
    }

    /** The due-order poller's query; public so that the database tests run the very text the product runs. */
    public static final String DUE_SQL = "SELECT order_id FROM order_state WHERE not_before IS NOT NULL AND "
            + StateStore.CLAIMABLE + " ORDER BY not_before LIMIT ?2";

    /**
     * Ids of claimed records whose complete-by has passed, soonest first; each is recovered under its own
     * lock. Reads the partial index order_state_claimed, which holds claimed rows only: the sweep costs the
     * same however many orders are finished.
     */
    public List<String> expired(OffsetDateTime now, int limit) {
        return ids(EXPIRED_SQL, now, limit);
    }

    /**
     * The supervisor's query; public so that the database tests run the very text the product runs. A
     * missed heartbeat expires an attempt as a passed complete-by does (index order_state_heartbeat, V13).
     */
    public static final String EXPIRED_SQL = "SELECT order_id FROM order_state"
            + " WHERE locked_by IS NOT NULL AND (complete_by < ?1 OR heartbeat_by < ?1)"
            + " ORDER BY least(complete_by, heartbeat_by) LIMIT ?2";

    @SuppressWarnings("unchecked")
    private List<String> ids(String sql, Object... parameters) {
        return NativeParameters.bind(em.createNativeQuery(sql), 1, List.of(parameters)).getResultList();
    }
}
