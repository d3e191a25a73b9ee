package io.overseer.platform;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * A lease row in PostgreSQL that lets one instance at a time run a cluster-wide job. Taking it is a
 * single conditional UPDATE: it succeeds if nobody holds the lease, the caller already holds it, or
 * the holder let it lapse — so a crashed holder is replaced after one lease period.
 *
 * <p>Time alone cannot make the job exclusive: a holder paused (GC, SIGSTOP) past its expiry wakes up
 * believing it still holds the lease — it read the time before the pause — and would write beside its
 * successor. So each tenure has an epoch, a fencing token: it goes up whenever the lease is taken anew
 * (by another holder, or lapsed and taken again) and stays while the holder renews a live lease. Every
 * write the lease protects calls {@link #fence} first, in the write's own transaction. The share lock
 * it takes on the row makes a take-over wait until the write has committed or rolled back, and a deposed
 * holder finds another epoch and writes nothing: at no moment do two tenures both write.
 */
@Stateless
public class JobLease {

    /**
     * ?1 holder, ?2 new expiry, ?3 job, ?4 now; returns the tenure's epoch, or no row if another holds a
     * live lease. In SET, {@code holder} and {@code expires_at} are still the old row's. Public, as the
     * other statements here, so that the database tests run the very text the product runs.
     */
    public static final String ACQUIRE_SQL = "UPDATE job_lease"
            + " SET epoch = CASE WHEN holder = ?1 AND expires_at >= ?4 THEN epoch ELSE epoch + 1 END,"
            + " holder = ?1, expires_at = ?2"
            + " WHERE name = ?3 AND (holder = ?1 OR holder IS NULL OR expires_at < ?4) RETURNING epoch";

    /** ?1 job, ?2 holder, ?3 epoch: a row while that tenure lasts, share-locked until the transaction ends. */
    public static final String FENCE_SQL = "SELECT epoch FROM job_lease"
            + " WHERE name = ?1 AND holder = ?2 AND epoch = ?3 FOR SHARE";

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    /** The lease for {@code ttl} from {@code now}, if nobody else holds it live. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Optional<HeldLease> tryAcquire(String job, String holder, OffsetDateTime now, Duration ttl) {
        List<?> epochs = em.createNativeQuery(ACQUIRE_SQL)
                .setParameter(1, holder)
                .setParameter(2, now.plus(ttl))
                .setParameter(3, job)
                .setParameter(4, now)
                .getResultList();
        return epochs.stream().findFirst().map(epoch -> new HeldLease(job, holder, ((Number) epoch).longValue()));
    }

    /**
     * Notes what the holder's last run did ({@code last_run_at}, {@code last_run_note}), for operators.
     * Only while {@code lease} is the current tenure; a deposed holder's note is dropped. Its own
     * transaction: a note is not worth failing anything for, and the caller logs a failure.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void note(HeldLease lease, OffsetDateTime at, String note) {
        em.createNativeQuery("UPDATE job_lease SET last_run_at = ?1, last_run_note = ?2"
                        + " WHERE name = ?3 AND holder = ?4 AND epoch = ?5")
                .setParameter(1, at)
                .setParameter(2, note.length() <= 300 ? note : note.substring(0, 300))
                .setParameter(3, lease.job())
                .setParameter(4, lease.holder())
                .setParameter(5, lease.epoch())
                .executeUpdate();
    }

    /**
     * Refuses the caller's write unless {@code lease} is still the current tenure, and keeps it current
     * until the caller's transaction ends. No expiry check: under the share lock nobody can take over, so
     * a lapsed tenure that nobody has taken over yet still writes safely; the epoch is what counts.
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public void fence(HeldLease lease) throws LeaseLostException {
        boolean current = !em.createNativeQuery(FENCE_SQL)
                .setParameter(1, lease.job())
                .setParameter(2, lease.holder())
                .setParameter(3, lease.epoch())
                .getResultList().isEmpty();
        if (!current) {
            throw new LeaseLostException(lease);
        }
    }

    /**
     * Creates the lease of a job that runs for a while and then ends (a bulk job), free: the first instance
     * to {@link #tryAcquire} it runs the job. In the caller's transaction, with the job's own row.
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public void open(String job, OffsetDateTime now) {
        em.createNativeQuery("INSERT INTO job_lease (name, holder, expires_at) VALUES (?1, NULL, ?2)"
                        + " ON CONFLICT (name) DO NOTHING")
                .setParameter(1, job)
                .setParameter(2, now)
                .executeUpdate();
    }

    /** Removes the lease of a job that has ended, in the caller's transaction (which ended the job). */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public void close(String job) {
        em.createNativeQuery("DELETE FROM job_lease WHERE name = ?1").setParameter(1, job).executeUpdate();
    }
}
