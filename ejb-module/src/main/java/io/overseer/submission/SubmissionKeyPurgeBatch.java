package io.overseer.submission;

import io.overseer.platform.HeldLease;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;

/**
 * One batch of the purge in its own transaction (a bean apart, so the container starts one per call),
 * fenced on the purge's lease: a purge paused past its lease deletes nothing once another holds it.
 */
@Stateless
public class SubmissionKeyPurgeBatch {

    @Inject
    SubmissionKeys keys;
    @EJB
    JobLease leases;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int delete(OffsetDateTime before, int batch, HeldLease lease) throws LeaseLostException {
        leases.fence(lease);
        return keys.purge(before, batch);
    }
}
