package io.overseer.statestore;

import jakarta.enterprise.context.ApplicationScoped;
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

    public void create(CustomerOrder order, OrderState state) {
        em.persist(order);
        em.persist(state);
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
     * Locks up to {@code limit} Pending records untouched since {@code before} — orders whose dispatch
     * message was lost or never sent — skipping rows another instance holds.
     */
    @SuppressWarnings("unchecked")
    public List<String> lockStrandedPending(OffsetDateTime before, int limit) {
        return em.createNativeQuery("SELECT order_id FROM order_state"
                        + " WHERE process_state = 'Pending' AND updated_at < ?1"
                        + " ORDER BY updated_at LIMIT ?2 FOR UPDATE SKIP LOCKED")
                .setParameter(1, before)
                .setParameter(2, limit)
                .getResultList();
    }

    /** Ids of Processing records whose complete-by has passed; each is recovered under its own lock. */
    public List<String> expired(OffsetDateTime now, int limit) {
        return em.createQuery("SELECT s.orderId FROM OrderState s"
                        + " WHERE s.processState = :processing AND s.completeBy < :now"
                        + " ORDER BY s.completeBy", String.class)
                .setParameter("processing", ProcessState.Processing)
                .setParameter("now", now)
                .setMaxResults(limit)
                .getResultList();
    }
}
