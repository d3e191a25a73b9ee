package io.overseer.notification;

import io.overseer.messaging.Courier;
import io.overseer.platform.Clocks;
import io.overseer.platform.HeldLease;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.List;

/** The outbox's statements, each in a transaction of its own (see {@link NotificationRelay}). */
@Stateless
public class NotificationOutbox {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    Courier courier;
    @Inject
    Clocks clocks;
    @EJB
    JobLease leases;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void delete(List<Long> ids) {
        em.createQuery("DELETE FROM PendingNotification n WHERE n.id IN :ids").setParameter("ids", ids).executeUpdate();
    }

    /**
     * Hands rows not attempted since {@code before} to the courier again (after this transaction commits)
     * and marks them attempted now, oldest first; rows another instance holds are skipped. Returns how many.
     * Fenced on the relay's lease, so a relay paused past it does not send a second copy beside its successor.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    @SuppressWarnings("unchecked")
    public int resend(OffsetDateTime before, int limit, HeldLease lease) throws LeaseLostException {
        leases.fence(lease);
        List<Long> ids = em.createNativeQuery("SELECT id FROM notification_outbox WHERE attempted_at < ?1"
                        + " ORDER BY id LIMIT ?2 FOR UPDATE SKIP LOCKED")
                .setParameter(1, before)
                .setParameter(2, limit)
                .getResultList().stream().map(id -> ((Number) id).longValue()).toList();
        if (ids.isEmpty()) {
            return 0;
        }
        OffsetDateTime now = clocks.now();
        List<PendingNotification> rows = em.createQuery("SELECT n FROM PendingNotification n WHERE n.id IN :ids"
                        + " ORDER BY n.id", PendingNotification.class)
                .setParameter("ids", ids)
                .getResultList();
        for (PendingNotification row : rows) {
            row.attempted(now);
            courier.send(row.parcel());
        }
        return rows.size();
    }
}
