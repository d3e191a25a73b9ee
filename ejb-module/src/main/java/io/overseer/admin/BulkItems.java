package io.overseer.admin;

import io.overseer.platform.HeldLease;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * A bulk job's action on one target, each in a transaction of its own under the job's lease: the fence
 * on the lease's epoch, the item's row lock, the action and the item's outcome commit together. So an
 * item is acted on once, whoever runs the job and however often: a runner taken over after a crash, or
 * paused past its lease, finds the item done or the lease another's.
 */
@Stateless
public class BulkItems {

    /** What came of one target: done, skipped or failed, and why (or what it did). */
    public record Outcome(String outcome, String detail) {

        public static Outcome done(String detail) {
            return new Outcome("done", detail);
        }

        public static Outcome skipped(String why) {
            return new Outcome("skipped", why);
        }

        public static Outcome failed(String why) {
            return new Outcome("failed", why);
        }
    }

    @Inject
    JobLease leases;
    @Inject
    BulkJobs jobs;
    @Inject
    OperatorActions actions;

    /**
     * Resubmits or cancels one order of the job; empty if the item had an outcome already. The order's
     * history says who and why: the job's operator, and its reason after the job's number.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Optional<Outcome> actOnOrder(HeldLease lease, BulkJobs.Job job, BulkJobs.Item item) throws LeaseLostException {
        leases.fence(lease);
        if (!jobs.lockPending(job.id(), item.seq())) {
            return Optional.empty();
        }
        Outcome outcome = actions.inBulk(job.action(), item.target(), job.operator(),
                "bulk job " + job.id() + ": " + job.reason());
        jobs.record(job.id(), item.seq(), outcome);
        return Optional.of(outcome);
    }

    /** Records an outcome under the fence (a failure's, or a redrive's); false if the item had one already. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean recorded(HeldLease lease, long jobId, int seq, Outcome outcome) throws LeaseLostException {
        leases.fence(lease);
        return jobs.record(jobId, seq, outcome);
    }
}
