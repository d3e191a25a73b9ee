package io.overseer.statestore;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
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
            transitions.fire(new OrderTransitions(state.orderId(), state.processState(), entries));
        }
    }

    public List<HistoryEntry> history(String orderId) {
        return em.createQuery("SELECT h FROM HistoryEntry h WHERE h.orderId = :orderId ORDER BY h.seq", HistoryEntry.class)
                .setParameter("orderId", orderId)
                .getResultList();
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
