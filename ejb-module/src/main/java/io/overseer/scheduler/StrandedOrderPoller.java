package io.overseer.scheduler;

import io.overseer.platform.Clocks;
import io.overseer.statestore.StateStore;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every instance polls for orders waiting for a scheduler that nobody claimed (their dispatch message
 * was lost, or dead-lettered). Each is claimed in its own transaction, so one order that cannot be
 * claimed never holds up the others. Non-persistent: a per-instance safety net, not a cluster-wide job.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class StrandedOrderPoller {

    private static final Logger LOG = Logger.getLogger(StrandedOrderPoller.class.getName());

    private final AtomicBoolean running = new AtomicBoolean();

    @EJB
    Scheduler scheduler;
    @Inject
    StateStore store;
    @Inject
    SchedulerSettings settings;
    @Inject
    Clocks clocks;

    @Schedule(hour = "*", minute = "*", second = "*/5", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void poll() {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        try {
            var now = clocks.now();
            List<String> ids = store.stranded(now.minus(settings.strandedAfter()), now, settings.pollBatch());
            int claimed = 0;
            for (String orderId : ids) {
                claimed += claim(orderId) ? 1 : 0;
            }
            if (claimed > 0) {
                LOG.log(Level.INFO, "Claimed {0} stranded orders", claimed);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Stranded-order poll failed; the next poll tries again", e);
        } finally {
            running.set(false);
        }
    }

    private boolean claim(String orderId) {
        try {
            return scheduler.dispatch(orderId);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not claim stranded order " + orderId + "; the next poll tries again", e);
            return false;
        }
    }
}
