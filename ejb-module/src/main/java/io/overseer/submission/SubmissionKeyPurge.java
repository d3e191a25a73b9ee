package io.overseer.submission;

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
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Forgets submission keys older than the retention, every minute, on whichever instance holds the
 * "submission-key-purge" lease (the supervisor's {@link JobLease} pattern: a non-persistent timer on every
 * instance, one sweeps). Deleting is idempotent, so even two purges at once do no harm; each batch is its
 * own transaction so a large backlog never holds locks for long.
 */
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class SubmissionKeyPurge {

    private static final Logger LOG = Logger.getLogger(SubmissionKeyPurge.class.getName());
    static final String LEASE = "submission-key-purge";
    private static final int BATCH = 1000;
    private static final int MAX_BATCHES = 50;

    @EJB
    JobLease lease;
    @EJB
    SubmissionKeyPurgeBatch batches;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;

    /** How long a key is kept: a retry within this gets the first order. The API promises at least 24 h. */
    @Inject
    @ConfigProperty(name = "overseer.submission.key-retention", defaultValue = "PT25H")
    Duration retention;

    @Schedule(hour = "*", minute = "*", second = "17", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void purge() {
        try {
            Optional<HeldLease> held = lease.tryAcquire(LEASE, instance.id(), clocks.now(), Duration.ofSeconds(50));
            if (held.isEmpty()) {
                return;
            }
            var before = clocks.now().minus(retention);
            int deleted = 0;
            for (int i = 0, n = BATCH; i < MAX_BATCHES && n == BATCH; i++) {
                n = batches.delete(before, BATCH, held.get());
                deleted += n;
            }
            if (deleted > 0) {
                LOG.log(Level.INFO, "Forgot {0} submission keys created before {1}", new Object[] {deleted, before});
            }
        } catch (LeaseLostException e) {
            LOG.log(Level.INFO, "Submission key purge stopped: {0}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Submission key purge failed; the next run tries again", e);
        }
    }
}
