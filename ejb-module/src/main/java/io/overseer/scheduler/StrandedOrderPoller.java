package io.overseer.scheduler;

import io.overseer.platform.Clocks;
import io.overseer.platform.DatabaseReachability;
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

    private final PollRounds rounds = new PollRounds(LOG, "stranded", MAX_ROUNDS,
            "Stranded-order poll failed; the next poll tries again");

    @EJB
    Scheduler scheduler;
    @Inject
    StateStore store;
    @Inject
    SchedulerSettings settings;
    @Inject
    Clocks clocks;
    @Inject
    DatabaseReachability database;

    @Schedule(hour = "*", minute = "*", second = "*/5", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void poll() {
        int claimed = rounds.poll(batch -> {
            var now = clocks.now();
            return store.stranded(now.minus(settings.strandedAfter()), now, batch);
        }, scheduler::claimStranded, settings.pollBatch(), database);
        if (claimed > 0) {
            LOG.log(Level.INFO, "Claimed {0} stranded orders", claimed);
        }
    }
}
