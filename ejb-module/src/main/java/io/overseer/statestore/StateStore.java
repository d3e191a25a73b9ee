package io.overseer.statestore;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The one place that reads and locks state records. Transitions happen under a pessimistic row lock
 * taken here; batch claims use {@code FOR UPDATE SKIP LOCKED} so concurrent pollers never wait on, or
 * take, each other's rows. Callers bring the transaction.
 */
@ApplicationScoped
public class StateStore {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    Event<OrderTransitions> transitions;

    public void create(CustomerOrder order, OrderState state) {
        em.persist(order);
        em.persist(state);
        saveHistory(state);
    }

    /**
     * Stores the transitions the record made since it was locked. Every caller that moves a record
     * calls this before its transaction ends, so the history commits (or rolls back) with the move —
     * and so do the status notifications of the {@link OrderTransitions} event fired here.
     */
    public void saveHistory(OrderState state) {
        List<HistoryEntry> entries = state.drainHistory();
        entries.forEach(em::persist);
        if (!entries.isEmpty()) {
            transitions.fire(new OrderTransitions(state.orderId(), state.processState(), state.submitterNotified(),
                    entries));
        }
    }

    public List<HistoryEntry> history(String orderId) {
        return em.createQuery("SELECT h FROM HistoryEntry h WHERE h.orderId = :orderId ORDER BY h.seq", HistoryEntry.class)
                .setParameter("orderId", orderId)
                .getResultList();
    }

    /**
     * History entries of the given orders past the given seq (one query for all of them), oldest first
     * per order. Entries at or before {@code afterSeq} are not read; callers drop those a watcher has.
     */
    public List<HistoryEntry> historySince(Collection<String> orderIds, int afterSeq) {
        return em.createQuery("SELECT h FROM HistoryEntry h WHERE h.orderId IN :ids AND h.seq > :seq"
                        + " ORDER BY h.orderId, h.seq", HistoryEntry.class)
                .setParameter("ids", orderIds)
                .setParameter("seq", afterSeq)
                .getResultList();
    }

    /**
     * Up to {@code limit} orders after the position ({@code afterCreatedAt}, {@code afterOrderId}) in the
     * order (created_at, order_id) — a total, stable order, so keyset pages neither skip nor repeat an
     * order, and orders created meanwhile appear at the end. Null position: from the start; null state:
     * any state. Reads the listing indexes of V4.
     */
    @SuppressWarnings("unchecked")
    public List<OrderSummary> list(ProcessState state, OffsetDateTime afterCreatedAt, String afterOrderId, int limit) {
        boolean after = afterCreatedAt != null;
        String sql = "SELECT s.order_id, o.customer_id, s.workflow, s.process_state, s.created_at, s.updated_at"
                + " FROM order_state s JOIN customer_order o ON o.order_id = s.order_id WHERE TRUE"
                + (state == null ? "" : " AND s.process_state = ?1")
                + (after ? " AND (s.created_at, s.order_id) > (?2, ?3)" : "")
                + " ORDER BY s.created_at, s.order_id LIMIT ?4";
        var query = em.createNativeQuery(sql);
        if (state != null) {
            query.setParameter(1, state.name());
        }
        if (after) {
            query.setParameter(2, afterCreatedAt).setParameter(3, afterOrderId);
        }
        List<Object[]> rows = query.setParameter(4, limit).getResultList();
        return rows.stream().map(row -> new OrderSummary((String) row[0], (String) row[1], (String) row[2],
                ProcessState.valueOf((String) row[3]), utc(row[4]), utc(row[5]))).toList();
    }

    /** The driver hands timestamptz to native queries as Timestamp or OffsetDateTime, depending on version. */
    private static OffsetDateTime utc(Object value) {
        if (value instanceof OffsetDateTime time) {
            return time.withOffsetSameInstant(ZoneOffset.UTC);
        }
        return ((Timestamp) value).toInstant().atOffset(ZoneOffset.UTC);
    }

    /** Locks the task's row (SELECT … FOR UPDATE) until the transaction ends. */
    public Optional<OrderState> lock(String orderId) {
        return Optional.ofNullable(em.find(OrderState.class, orderId, LockModeType.PESSIMISTIC_WRITE));
    }

    public Optional<CustomerOrder> order(String orderId) {
        return Optional.ofNullable(em.find(CustomerOrder.class, orderId));
    }

    public Optional<OrderState> read(String orderId) {
        return Optional.ofNullable(em.find(OrderState.class, orderId));
    }

    /**
     * Ids of up to {@code limit} claimable records (Pending, or Compensating with nobody on it) untouched
     * since {@code before} and due — orders whose dispatch message was lost. Rows another transaction
     * holds are skipped; each id is then claimed under its own lock, in its own transaction.
     */
    @SuppressWarnings("unchecked")
    public List<String> stranded(OffsetDateTime before, OffsetDateTime now, int limit) {
        return em.createNativeQuery("SELECT order_id FROM order_state"
                        + " WHERE (process_state = 'Pending' OR (process_state = 'Compensating' AND locked_by IS NULL))"
                        + " AND updated_at < ?1 AND (not_before IS NULL OR not_before <= ?2)"
                        + " ORDER BY updated_at LIMIT ?3 FOR UPDATE SKIP LOCKED")
                .setParameter(1, before)
                .setParameter(2, now)
                .setParameter(3, limit)
                .getResultList();
    }

    /** Ids of claimed records whose complete-by has passed; each is recovered under its own lock. */
    public List<String> expired(OffsetDateTime now, int limit) {
        return em.createQuery("SELECT s.orderId FROM OrderState s"
                        + " WHERE s.lockedBy IS NOT NULL AND s.completeBy < :now"
                        + " ORDER BY s.completeBy", String.class)
                .setParameter("now", now)
                .setMaxResults(limit)
                .getResultList();
    }
}
