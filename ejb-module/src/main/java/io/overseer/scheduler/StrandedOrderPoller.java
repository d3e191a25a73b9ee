package io.overseer.scheduler;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every instance polls for Pending orders that nobody claimed (their dispatch message was lost, or
 * dead-lettered). SKIP LOCKED keeps instances from taking the same rows; the claim itself re-checks.
 * Non-persistent: it is a per-instance safety net, not a cluster-wide job.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class StrandedOrderPoller {

    private static final Logger LOG = Logger.getLogger(StrandedOrderPoller.class.getName());

    private final AtomicBoolean running = new AtomicBoolean();

    @EJB
    Scheduler scheduler;

    @Schedule(hour = "*", minute = "*", second = "*/5", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void poll() {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        try {
            scheduler.dispatchStranded();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Stranded-order poll failed; the next poll tries again", e);
        } finally {
            running.set(false);
        }
    }
}
