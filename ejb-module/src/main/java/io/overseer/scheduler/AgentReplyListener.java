package io.overseer.scheduler;

import io.overseer.agent.AgentReply;
import io.overseer.messaging.DeadLetters;
import io.overseer.messaging.Destinations;
import io.overseer.notification.AlertPublisher;
import io.overseer.platform.DatabaseReachability;
import io.overseer.platform.Json;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Feeds the agents' replies to the scheduler, a batch message at a time, in one transaction
 * ({@link Scheduler#applyReplies}). Replies are idempotent: a repeated or stale one changes nothing.
 *
 * <p>Only agents may answer: a message whose sender (the user the broker authenticated and stamped on it,
 * which clients cannot forge) is not the application's broker user is dead-lettered whole and raises a
 * security alert; a reply that names the running attempt without its random token is dead-lettered and
 * alerted by the scheduler. Neither touches an order.
 *
 * <p>No transaction around the delivery: the message is acknowledged when onMessage returns, after the
 * database commit. A failure rolls nothing into the broker: the message is delivered again while the
 * database is out, and dead-lettered with the failure once it has failed five times for another reason
 * ({@link DeadLetters#retryOrReject}); an attempt whose reply never lands expires and is retried.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = Destinations.AGENT_REPLIES),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Destinations.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class AgentReplyListener implements MessageListener {

    private static final Logger LOG = Logger.getLogger(AgentReplyListener.class.getName());

    @Inject
    Scheduler scheduler;
    @Inject
    DeadLetters deadLetters;
    @Inject
    AlertPublisher alerts;
    @Inject
    ReplySenders senders;
    @Inject
    DatabaseReachability database;

    @Override
    public void onMessage(Message message) {
        String sender = property(message, Destinations.VALIDATED_USER);
        if (!senders.isAgent(sender)) {
            deadLetters.reject(message, Destinations.AGENT_REPLIES,
                    "agent reply sent by '" + sender + "', not by the application's broker user");
            alerts.raise(null, "forged-reply", "a message on " + Destinations.AGENT_REPLIES + " from broker user '"
                    + sender + "' was refused");
            return;
        }
        List<AgentReply> replies = deadLetters.readBatch(message, Destinations.AGENT_REPLIES, AgentReply.class,
                "agent reply", AgentReplyListener::complete, "orderId, operation or outcome").orElse(null);
        if (replies == null) {
            return;
        }
        if (deadLetters.handedBackWhileDatabaseAway(message, Destinations.AGENT_REPLIES)) {
            return; // this instance cannot reach its database: another instance applies the replies at once.
        }
        List<AgentReply> refused;
        try {
            refused = apply(replies);
            database.reached();
        } catch (RuntimeException e) {
            deadLetters.retryOrReject(message, Destinations.AGENT_REPLIES, e);
            return;
        }
        for (AgentReply forged : refused) {
            deadLetters.rejectItem(forged.orderId(), Json.write(forged), Destinations.AGENT_REPLIES,
                    "agent reply for the running attempt without its token", sender);
        }
    }

    /**
     * Applies the batch in one transaction; if that fails, each reply in its own, so that one reply that
     * cannot be applied does not hold up the others. Still failing: rethrown, the broker redelivers (the
     * replies applied meanwhile are stale by then).
     */
    private List<AgentReply> apply(List<AgentReply> replies) {
        try {
            return scheduler.applyReplies(replies);
        } catch (RuntimeException e) {
            if (replies.size() == 1) {
                throw e;
            }
            LOG.log(Level.WARNING, "A batch of {0} replies could not be applied at once ({1}); applying them one by one",
                    new Object[] {replies.size(), e.toString()});
            RuntimeException failure = null;
            List<AgentReply> forged = new java.util.ArrayList<>();
            for (AgentReply reply : replies) {
                try {
                    forged.addAll(scheduler.applyReplies(List.of(reply)));
                } catch (RuntimeException single) {
                    failure = single;
                }
            }
            if (failure != null) {
                throw failure;
            }
            return forged;
        }
    }

    private static boolean complete(AgentReply reply) {
        return reply.orderId() != null && reply.outcome() != null && reply.operation() != null;
    }

    private static String property(Message message, String name) {
        try {
            return message.getStringProperty(name);
        } catch (JMSException e) {
            return null;
        }
    }
}
