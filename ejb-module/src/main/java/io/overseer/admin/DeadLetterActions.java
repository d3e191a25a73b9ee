package io.overseer.admin;

import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.BrokerUnavailableException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * An operator's actions on the dead-letter queue, each recorded in the audit log with what came of it.
 *
 * <p>The broker operation and the audit entry cannot be one transaction: management operations are not
 * transactional, and a moved message cannot be moved back if the insert fails. So this bean holds no
 * transaction (none stays open across the broker call): the broker acts first ({@link BrokerQueues}),
 * then the entry, in a transaction of its own ({@link AuditLog}), records what it did — how many went
 * back, or "not found". When the broker did not answer, the entry says the outcome is unknown (a request
 * already on its way may still be carried out when the broker wakes up), or "not done" if nothing was
 * sent, and the caller gets a 503. If the
 * insert fails after the broker acted, the action stands unrecorded and the caller gets an error.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DeadLetterActions {

    static final String TARGET_ALL = "dead-letters";

    @Inject
    BrokerQueues queues;
    @Inject
    AuditLog audit;

    /** Sends one dead letter back to its original queue; false if there was none with that id that could go. */
    public boolean redrive(long messageId, String operator, String reason) throws BrokerUnavailableException {
        String action = "redrive-dead-letter";
        boolean sent = onBroker(operator, action, target(messageId), reason, () -> queues.redrive(messageId));
        audit.record(operator, action, target(messageId), reason,
                sent ? "sent back to its original queue" : "not found (or without an original queue)");
        return sent;
    }

    /** Sends every dead letter that has an original queue back to it; how many went. */
    public int redriveAll(String operator, String reason) throws BrokerUnavailableException {
        String action = "redrive-dead-letters";
        int sent = onBroker(operator, action, TARGET_ALL, reason, queues::redriveAll);
        audit.record(operator, action, TARGET_ALL, reason, sent + " sent back to their original queues");
        return sent;
    }

    /** Deletes one dead letter; false if there was none with that id. */
    public boolean delete(long messageId, String operator, String reason) throws BrokerUnavailableException {
        String action = "delete-dead-letter";
        boolean deleted = onBroker(operator, action, target(messageId), reason, () -> queues.delete(messageId));
        audit.record(operator, action, target(messageId), reason, deleted ? "deleted" : "not found");
        return deleted;
    }

    /** The broker's part; if the broker did not answer, records that the outcome is unknown and rethrows. */
    private <T> T onBroker(String operator, String action, String target, String reason, BrokerCall<T> call)
            throws BrokerUnavailableException {
        try {
            return call.run();
        } catch (BrokerUnavailableException e) {
            audit.record(operator, action, target, reason,
                    (e instanceof BrokerQueues.NotSent ? "not done: " : "outcome unknown: ") + e.getMessage());
            throw e;
        }
    }

    private interface BrokerCall<T> {
        T run() throws BrokerUnavailableException;
    }

    private static String target(long messageId) {
        return "dead-letter " + messageId;
    }
}
