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
import java.util.logging.Logger;

/**
 * Every second, on every instance, claims the waiting orders whose not-before has passed: delayed starts,
 * retries at the end of their backoff, compensations of a cancelled order once its abandoned attempt's
 * deadline is over. Nothing announces these (an announcement cannot be timed), so without this they would
 * wait for the stranded-order poller. The claim locks with SKIP LOCKED and re-checks each record, so
 * instances polling the same rows never claim one twice; one query on a small partial index when none is
 * due. Non-persistent, like the stranded-order poller; a failed batch is claimed one by one ({@link BatchClaims}).
 */
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class DueOrderPoller {

    private static final Logger LOG = Logger.getLogger(DueOrderPoller.class.getName());
    /** Batches per poll at most: a second's poll of a huge due backlog hands the rest to the next one. */
    private static final int MAX_ROUNDS = 10;

    private final PollRounds rounds = new PollRounds(LOG, "due", MAX_ROUNDS,
            "Due-order poll failed; the next poll tries again");

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

    @Schedule(hour = "*", minute = "*", second = "*", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void poll() {
        rounds.poll(batch -> store.due(clocks.now(), batch), scheduler::claimDue, settings.pollBatch(), database);
    }
}
