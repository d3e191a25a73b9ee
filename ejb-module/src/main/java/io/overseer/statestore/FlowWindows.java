package io.overseer.statestore;

import static io.overseer.platform.Database.utc;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.function.ToLongFunction;

/**
 * The flow limits' windows: one {@code flow_limit} row per limited operation, locked by whoever admits an
 * attempt of it (the scheduler, for attempts started per second and in flight) or starts its call (the
 * agents, for calls per second), so that instances count one transaction at a time. Apart from
 * {@link StateStore} because it locks and writes no order: the records waiting for a limit are the store's
 * ({@link StateStore#releaseThrottled}). Callers bring the transaction.
 */
@ApplicationScoped
public class FlowWindows {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    /** A flow limit's window, read under its row's lock: the second it counts, and the starts in it. */
    public record FlowWindow(OffsetDateTime start, int starts, long running) {
    }

    /** {@link #lockFlowWindow}'s statements; public so that the database tests run the very texts. */
    public static final String FLOW_ROW_SQL = "INSERT INTO flow_limit (operation) VALUES (?1) ON CONFLICT DO NOTHING";
    public static final String FLOW_LOCK_SQL = "SELECT window_start, window_starts FROM flow_limit WHERE operation = ?1 FOR UPDATE";
    public static final String FLOW_RUNNING_SQL = "SELECT count(*) FROM step_state WHERE running_operation = ?1";
    public static final String FLOW_SAVE_SQL = "UPDATE flow_limit SET window_start = ?2, window_starts = ?3 WHERE operation = ?1";

    /**
     * Locks {@code operation}'s flow-limit row until the transaction ends — so that instances admit its
     * attempts one transaction at a time — and reads its window and the attempts of it running now.
     */
    public FlowWindow lockFlowWindow(String operation) {
        return lockWindow(FLOW_LOCK_SQL, operation, this::runningOf);
    }

    /** {@link #lockCallWindow}'s statements; public so that the database tests run the very texts. */
    public static final String CALL_LOCK_SQL = "SELECT call_window_start, call_window_starts FROM flow_limit"
            + " WHERE operation = ?1 FOR UPDATE";
    public static final String CALL_SAVE_SQL = "UPDATE flow_limit SET call_window_start = ?2, call_window_starts = ?3"
            + " WHERE operation = ?1";

    /**
     * Locks {@code operation}'s flow-limit row and reads the window of its calls' starts (the agents' side of
     * the per-second limit, {@code io.overseer.agent.CallPacer}); {@code running} is not read (0).
     */
    public FlowWindow lockCallWindow(String operation) {
        return lockWindow(CALL_LOCK_SQL, operation, locked -> 0);
    }

    /** {@link #databaseNow}'s statement. */
    public static final String DATABASE_NOW_SQL = "SELECT clock_timestamp()";

    /**
     * The database's own time, read now rather than estimated from this JVM's clock ({@code Clocks}): what
     * the call pacer judges a second by once it holds a window's lock, where an error in the estimate would
     * move its guard band. {@code clock_timestamp()}, not {@code now()}: the time of this statement, not of
     * the transaction's start, which may lie before a wait for the lock.
     */
    public OffsetDateTime databaseNow() {
        return utc(em.createNativeQuery(DATABASE_NOW_SQL).getSingleResult());
    }

    /** Creates the row if need be, locks it with {@code lockSql}, then reads {@code running} under the lock. */
    private FlowWindow lockWindow(String lockSql, String operation, ToLongFunction<String> running) {
        em.createNativeQuery(FLOW_ROW_SQL).setParameter(1, operation).executeUpdate();
        Object[] window = (Object[]) em.createNativeQuery(lockSql).setParameter(1, operation).getSingleResult();
        return new FlowWindow(window[0] == null ? null : utc(window[0]), ((Number) window[1]).intValue(),
                running.applyAsLong(operation));
    }

    public void saveCallWindow(String operation, OffsetDateTime start, int starts) {
        saveWindow(CALL_SAVE_SQL, operation, start, starts);
    }

    public void saveFlowWindow(String operation, OffsetDateTime start, int starts) {
        saveWindow(FLOW_SAVE_SQL, operation, start, starts);
    }

    private void saveWindow(String saveSql, String operation, OffsetDateTime start, int starts) {
        em.createNativeQuery(saveSql).setParameter(1, operation).setParameter(2, start).setParameter(3, starts)
                .executeUpdate();
    }

    /** Per limited operation: attempts running now (a metrics gauge, and what {@link #lockFlowWindow} reads under the lock). */
    public long runningOf(String operation) {
        return ((Number) em.createNativeQuery(FLOW_RUNNING_SQL).setParameter(1, operation).getSingleResult()).longValue();
    }
}
