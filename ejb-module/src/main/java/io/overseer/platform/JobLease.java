package io.overseer.platform;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.OffsetDateTime;

/**
 * A lease row in PostgreSQL that lets one instance at a time run a cluster-wide job. Taking it is a
 * single conditional UPDATE: it succeeds if nobody holds the lease, the caller already holds it, or
 * the holder let it lapse — so a crashed holder is replaced after one lease period.
 */
@Stateless
public class JobLease {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean tryAcquire(String job, String holder, OffsetDateTime now, Duration ttl) {
        return em.createNativeQuery("UPDATE job_lease SET holder = ?1, expires_at = ?2"
                        + " WHERE name = ?3 AND (holder = ?1 OR holder IS NULL OR expires_at < ?4)")
                .setParameter(1, holder)
                .setParameter(2, now.plus(ttl))
                .setParameter(3, job)
                .setParameter(4, now)
                .executeUpdate() == 1;
    }
}
