package io.overseer.scheduler;

import io.overseer.platform.Clocks;
import io.overseer.statestore.StateStore;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
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
 * Every instance polls for orders waiting for a scheduler that nobody claimed (their dispatch hint was
 * lost: a crash between a commit and its send, a broker outage, a full outgoing queue). It claims them a
 * batch per transaction through the scheduler, which locks and re-checks each; if a batch fails, its
 * orders are claimed one per transaction, so one order that cannot be claimed never holds up the others.
 * Non-persistent: a per-instance safety net, not a cluster-wide job.
 */
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class StrandedOrderPoller {

    private static final Logger LOG = Logger.getLogger(StrandedOrderPoller.class.getName());
    /** Batches per poll at most, so that one poll of a huge backlog does not run for ever. */
    private static final int MAX_ROUNDS = 50;

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
            int claimed = 0;
            for (int round = 0; round < MAX_ROUNDS; round++) {
                var now = clocks.now();
                List<String> ids = store.stranded(now.minus(settings.strandedAfter()), now, settings.pollBatch());
                claimed += claim(ids);
                if (ids.size() < settings.pollBatch()) {
                    break;
                }
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

    private int claim(List<String> ids) {
        return BatchClaims.claim(ids, scheduler::claimStranded, LOG, "stranded");
    }
}
