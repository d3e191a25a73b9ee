package io.overseer.admin;

import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.BrokerUnavailableException;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/**
 * An operator's actions on the dead-letter queue, each recorded in the audit log with what came of it.
 *
 * <p>The broker operation and the audit entry are not one transaction: management operations are not
 * transactional, and a message cannot be un-moved if the insert fails. So the broker acts first (outside
 * this bean's transaction, see {@link BrokerQueues}) and the entry then records what it did — how many
 * went back, or "not found". If the broker cannot be reached nothing happened and nothing is recorded
 * (the caller gets 503); if the insert fails after the broker acted, the action stands unrecorded and
 * the caller gets an error — the log's gap is the price of never recording an action that did not happen.
 */
@Stateless
public class DeadLetterActions {

    static final String TARGET_ALL = "dead-letters";

    @Inject
    BrokerQueues queues;
    @Inject
    AuditLog audit;

    /** Sends one dead letter back to its original queue; false if there was none with that id that could go. */
    public boolean redrive(long messageId, String operator, String reason) throws BrokerUnavailableException {
        boolean sent = queues.redrive(messageId);
        audit.record(operator, "redrive-dead-letter", target(messageId), reason,
                sent ? "sent back to its original queue" : "not found (or without an original queue)");
        return sent;
    }

    /** Sends every dead letter that has an original queue back to it; how many went. */
    public int redriveAll(String operator, String reason) throws BrokerUnavailableException {
        int sent = queues.redriveAll();
        audit.record(operator, "redrive-dead-letters", TARGET_ALL, reason, sent + " sent back to their original queues");
        return sent;
    }

    /** Deletes one dead letter; false if there was none with that id. */
    public boolean delete(long messageId, String operator, String reason) throws BrokerUnavailableException {
        boolean deleted = queues.delete(messageId);
        audit.record(operator, "delete-dead-letter", target(messageId), reason, deleted ? "deleted" : "not found");
        return deleted;
    }

    private static String target(long messageId) {
        return "dead-letter " + messageId;
    }
}
