package io.overseer.admin;

import io.overseer.statestore.ProcessState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How many orders are Processed and Compensated, without reading every finished order each time: the
 * overview's counts (its 15 s meters, and each console poll) once scanned the whole of order_state, a cost
 * that grew with every finished order. Those two states are the ends of the state machine — an order in one
 * never changes again, and its updated_at is when it got there — so each instance counts them once when it
 * first asks ({@link #INITIAL_SQL}: once per start, not per sample), and afterwards only the orders finished
 * since, through the partial index order_state_finished (V10), whose entries are finished orders by updated_at.
 *
 * <p>The orders finished since a mark are counted afresh each time ({@link #RECENT_SQL}); what finished more
 * than {@link #SETTLE} ago is added to the settled count and the mark moves on ({@link #SETTLE_SQL}). An order
 * that finishes stamps updated_at with the database clock in its transaction, which commits within seconds (the
 * pools' statement and idle-in-transaction timeouts): so when the mark moves to {@code now - SETTLE}, every
 * order stamped before it is visible, and none is missed or counted twice. Error is not counted here: an
 * operator moves an order out of it, so it is counted live with the states that are not final.
 */
@ApplicationScoped
public class FinishedTally {

    /** Much longer than any transaction stays open between reading the clock and committing. */
    static final Duration SETTLE = Duration.ofMinutes(10);
    private static final String ENDS = "process_state IN ('Processed', 'Compensated')";
    /** The statements; package-private so that the database tests run the very texts. */
    static final String INITIAL_SQL = "SELECT process_state, count(*) FROM order_state WHERE " + ENDS
            + " AND updated_at <= ?1 GROUP BY process_state";
    static final String SETTLE_SQL = "SELECT process_state, count(*) FROM order_state WHERE " + ENDS
            + " AND updated_at > ?1 AND updated_at <= ?2 GROUP BY process_state";
    static final String RECENT_SQL = "SELECT process_state, count(*) FROM order_state WHERE " + ENDS
            + " AND updated_at > ?1 GROUP BY process_state";

    private OffsetDateTime mark;
    private final Map<ProcessState, Long> settled = new EnumMap<>(ProcessState.class);

    /** Orders Processed and Compensated now, read with {@code em}; {@code now} on the database clock. */
    public synchronized Map<ProcessState, Long> counts(EntityManager em, OffsetDateTime now) {
        OffsetDateTime settleTo = now.minus(SETTLE);
        if (mark == null) {
            Map<ProcessState, Long> initial = read(em, INITIAL_SQL, settleTo);
            settled.clear();
            settled.putAll(initial);
            mark = settleTo;
        } else if (settleTo.isAfter(mark.plus(SETTLE))) { // the settled window moves by SETTLE at a time
            read(em, SETTLE_SQL, mark, settleTo).forEach((state, count) -> settled.merge(state, count, Long::sum));
            mark = settleTo;
        }
        Map<ProcessState, Long> counts = new EnumMap<>(ProcessState.class);
        counts.put(ProcessState.Processed, settled.getOrDefault(ProcessState.Processed, 0L));
        counts.put(ProcessState.Compensated, settled.getOrDefault(ProcessState.Compensated, 0L));
        read(em, RECENT_SQL, mark).forEach((state, count) -> counts.merge(state, count, Long::sum));
        return counts;
    }

    @SuppressWarnings("unchecked")
    private static Map<ProcessState, Long> read(EntityManager em, String sql, Object... parameters) {
        var query = em.createNativeQuery(sql);
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        Map<ProcessState, Long> counts = new EnumMap<>(ProcessState.class);
        for (Object[] row : (List<Object[]>) query.getResultList()) {
            counts.put(ProcessState.valueOf((String) row[0]), ((Number) row[1]).longValue());
        }
        return counts;
    }
}
