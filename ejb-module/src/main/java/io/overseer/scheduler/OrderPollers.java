package io.overseer.scheduler;

import io.overseer.platform.Clocks;
import io.overseer.platform.DatabaseReachability;
import io.overseer.statestore.Sweeps;
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
 * The two polls that claim, on every instance, the waiting orders that nothing announced. They are one poll
 * ({@link PollRounds}: a batch of ids found, claimed through the scheduler, which locks with SKIP LOCKED and
 * re-checks each, so instances polling the same rows never claim one twice) and differ only in what they
 * find, how often and how many batches one poll may claim:
 * <ul>
 * <li><b>due</b>, every second: orders whose not-before has passed — delayed starts, retries at the end of
 * their backoff, compensations of a cancelled order once its abandoned attempt's deadline is over. Nothing
 * announces these (an announcement cannot be timed); one query on a small partial index when none is due.</li>
 * <li><b>stranded</b>, every five seconds: orders waiting for a scheduler that nobody claimed, their dispatch
 * hint lost (a crash between a commit and its send, a broker outage, a full outgoing queue).</li>
 * </ul>
 * Non-persistent: a per-instance safety net, not a cluster-wide job. A failed batch is claimed one order per
 * transaction ({@link BatchClaims}), so one order that cannot be claimed never holds up the others.
 */
@Singleton
@DependsOn("SchemaMigration") // its timers must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class OrderPollers {

    private static final Logger LOG = Logger.getLogger(OrderPollers.class.getName());

    /** Ten batches per poll at most: a second's poll of a huge due backlog hands the rest to the next one. */
    private final PollRounds due = new PollRounds(LOG, "due", 10, "Due-order poll failed; the next poll tries again");
    /** Fifty batches per poll at most, so that one poll of a huge backlog does not run for ever. */
    private final PollRounds stranded = new PollRounds(LOG, "stranded", 50,
            "Stranded-order poll failed; the next poll tries again");

    @EJB
    Scheduler scheduler;
    @Inject
    Sweeps sweeps;
    @Inject
    SchedulerSettings settings;
    @Inject
    Clocks clocks;
    @Inject
    DatabaseReachability database;

    @Schedule(hour = "*", minute = "*", second = "*", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void pollDue() {
        due.poll(batch -> sweeps.due(clocks.now(), batch), scheduler::claimDue, settings.pollBatch(), database);
    }

    @Schedule(hour = "*", minute = "*", second = "*/5", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void pollStranded() {
        int claimed = stranded.poll(batch -> {
            var now = clocks.now();
            return sweeps.stranded(now.minus(settings.strandedAfter()), now, batch);
        }, scheduler::claimStranded, settings.pollBatch(), database);
        if (claimed > 0) {
            LOG.log(Level.INFO, "Claimed {0} stranded orders", claimed);
        }
    }
}
