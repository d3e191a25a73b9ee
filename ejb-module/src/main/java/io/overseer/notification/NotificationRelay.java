package io.overseer.notification;

import io.overseer.messaging.Courier;
import io.overseer.messaging.Delivered;
import io.overseer.platform.Clocks;
import io.overseer.platform.HeldLease;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The outbox's two ends. When the courier reports that the broker has notifications
 * ({@link Delivered}), their rows are deleted, all in one statement. Every 10 s, on whichever instance
 * holds the lease, rows that have waited longer than {@link #RESEND_AFTER} — their send was lost in a
 * crash, or dropped during a long broker outage — are handed to the courier again; a submitter may then
 * hear a notification twice, never not at all.
 */
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class NotificationRelay {

    private static final Logger LOG = Logger.getLogger(NotificationRelay.class.getName());
    static final String LEASE = "notification-relay";
    static final Duration RESEND_AFTER = Duration.ofSeconds(30);
    private static final int BATCH = 500;

    @EJB
    NotificationOutbox outbox;
    @EJB
    JobLease lease;
    @Inject
    Courier courier;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;

    public void onDelivered(@Observes Delivered delivered) {
        List<Long> ids = delivered.receipts().stream()
                .filter(receipt -> receipt.startsWith(PendingNotification.RECEIPT_PREFIX))
                .map(receipt -> Long.valueOf(receipt.substring(PendingNotification.RECEIPT_PREFIX.length())))
                .toList();
        if (!ids.isEmpty()) {
            outbox.delete(ids);
        }
    }

    @Schedule(hour = "*", minute = "*", second = "*/10", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void resendStale() {
        try {
            if (courier.isStalled()) {
                return; // the copies would only queue up behind the first ones
            }
            Optional<HeldLease> held = lease.tryAcquire(LEASE, instance.id(), clocks.now(), Duration.ofSeconds(30));
            if (held.isEmpty()) {
                return;
            }
            int resent = outbox.resend(clocks.now().minus(RESEND_AFTER), BATCH, held.get());
            if (resent > 0) {
                LOG.log(Level.INFO, "Sent {0} status notifications again whose first send was not confirmed", resent);
            }
        } catch (LeaseLostException e) {
            LOG.log(Level.INFO, "Notification relay stopped: {0}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Notification relay failed; the next run tries again", e);
        }
    }
}
