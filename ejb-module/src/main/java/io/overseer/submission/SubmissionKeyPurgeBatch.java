package io.overseer.submission;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;

/** One batch of the purge in its own transaction (a bean apart, so the container starts one per call). */
@Stateless
public class SubmissionKeyPurgeBatch {

    @Inject
    SubmissionKeys keys;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int delete(OffsetDateTime before, int batch) {
        return keys.purge(before, batch);
    }
}
