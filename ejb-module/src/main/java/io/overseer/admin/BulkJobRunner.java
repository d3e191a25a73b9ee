package io.overseer.admin;

import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.platform.Clocks;
import io.overseer.platform.Heartbeat;
import io.overseer.platform.HeldLease;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import io.overseer.platform.OneAtATime;
import io.overseer.platform.Progress;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the bulk jobs, every second, on every instance: each running job is run by whichever instance
 * holds its lease ({@code bulk-<id>}), and taken over like any other cluster-wide work when that instance
 * dies (after {@link BulkSettings#lease}). Each item is acted on in its own transaction under the lease's
 * fence ({@link BulkItems}).
 *
 * <p>Paced, so that a job never outruns the system: at most the job's rate of actions each second, and,
 * for orders, never more than {@link BulkSettings#inFlight} of the orders it resubmitted or cancelled
 * unfinished at once. Its orders then queue with new ones only that deep, and the flow limits hold for
 * them as for any order, because they are dispatched like any order.
 *
 * <p>Failure policy: an order that is gone or whose state refuses the action is skipped, with why. The
 * broker away stops the job's turn (the item is tried again next second, without counting). Anything else
 * failing is tried again on the next turns, and recorded as failed, with why, after {@value #ATTEMPTS}
 * tries in a row; the job goes on with the next item.
 */
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class BulkJobRunner {

    private static final Logger LOG = Logger.getLogger(BulkJobRunner.class.getName());
    static final int ATTEMPTS = 3;

    /** Failures in a row of an item on this instance ("job:seq"); forgotten when it is acted on. */
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    /** When each job's last turn on this instance began (System.nanoTime), for its rate's budget. */
    private final Map<Long, Long> lastTurns = new ConcurrentHashMap<>();
    private Heartbeat heartbeat;
    private OneAtATime turns;

    @EJB
    JobLease leases;
    @EJB
    BulkJobs jobs;
    @EJB
    BulkItems items;
    @Inject
    BrokerQueues broker;
    @Inject
    BulkSettings settings;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;
    @Inject
    Progress progress;

    @PostConstruct
    void watched() {
        heartbeat = progress.watch("bulk job timer");
        turns = new OneAtATime(LOG, "Bulk jobs' turn failed; the next second tries again", heartbeat);
    }

    @PreDestroy
    void unwatched() {
        progress.forget(heartbeat);
    }

    @Schedule(hour = "*", minute = "*", second = "*", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void tick() {
        turns.run(this::runJobs);
    }

    private void runJobs() {
        for (long id : jobs.running()) {
            try {
                leases.tryAcquire(BulkJobs.leaseOf(id), instance.id(), clocks.now(), settings.lease())
                        .ifPresent(held -> run(held, id));
            } catch (RuntimeException e) { // one job's trouble does not hold the others up
                LOG.log(Level.WARNING, "Bulk job " + id + ": its turn failed; the next second tries again", e);
            }
        }
    }

    /**
     * One turn of a job: its rate's worth of items for the time since its last turn began (a turn that
     * took longer than a second made the timer skip a tick: the next one catches up, up to two seconds'
     * worth), fewer while too many of its orders are unfinished.
     */
    private void run(HeldLease held, long id) {
        BulkJobs.Job job = jobs.job(id).orElse(null);
        if (job == null || !"Running".equals(job.state())) {
            lastTurns.remove(id);
            return;
        }
        long now = System.nanoTime();
        Long last = lastTurns.put(id, now);
        long budget = budget(job.rate(), last == null ? 1_000_000_000L : now - last);
        if (job.action().onOrders()) {
            budget = Math.min(budget, Math.max(0, settings.inFlight() - jobs.unfinished(id)));
        }
        if (budget == 0) {
            return; // its orders are still running: it waits for them, not new orders for it
        }
        List<BulkJobs.Item> next = jobs.pending(id, (int) budget);
        try {
            for (BulkJobs.Item item : next) {
                if (!act(held, job, item)) {
                    return;
                }
            }
            if (next.size() < budget) {
                jobs.finish(held, id);
            }
        } catch (LeaseLostException e) {
            lastTurns.remove(id);
            LOG.log(Level.WARNING, "Bulk job {0} stopped here: {1}; the lease's holder runs it now (or it was cancelled)",
                    new Object[] {id, e.getMessage()});
        }
    }

    /** Acts on one item; false if the job's turn should end here (the item is tried again next turn). */
    private boolean act(HeldLease held, BulkJobs.Job job, BulkJobs.Item item) throws LeaseLostException {
        String key = job.id() + ":" + item.seq();
        try {
            if (job.action().onOrders()) {
                items.actOnOrder(held, job, item);
            } else {
                // Not transactional: the broker moves the message, then the outcome is recorded. A runner dying
                // between the two leaves the item pending; its successor finds the message gone and says so.
                items.recorded(held, job.id(), item.seq(), broker.redrive(Long.parseLong(item.target()))
                        ? BulkItems.Outcome.done("sent back to its original queue")
                        : BulkItems.Outcome.skipped("not in the dead-letter queue any more, or without an original queue"));
            }
            failures.remove(key);
            return true;
        } catch (BrokerUnavailableException e) {
            LOG.log(Level.WARNING, "Bulk job {0} waits for the broker: {1}", new Object[] {job.id(), e.getMessage()});
            return false;
        } catch (RuntimeException e) {
            int count = failures.merge(key, 1, Integer::sum);
            String why = cause(e);
            if (count < ATTEMPTS) {
                LOG.log(Level.WARNING, "Bulk job {0}, target {1}: {2}; tried again next second",
                        new Object[] {job.id(), item.target(), why});
                return false;
            }
            failures.remove(key);
            items.recorded(held, job.id(), item.seq(), BulkItems.Outcome.failed(why));
            LOG.log(Level.WARNING, "Bulk job {0}, target {1} failed after {2} tries: {3}",
                    new Object[] {job.id(), item.target(), ATTEMPTS, why});
            return true;
        }
    }

    /** Actions for {@code elapsedNanos} at {@code rate} a second: at least one, at most two seconds' worth. */
    static long budget(int rate, long elapsedNanos) {
        long worth = Math.round(rate * (elapsedNanos / 1e9));
        return Math.max(1, Math.min(2L * rate, worth));
    }

    private static String cause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
