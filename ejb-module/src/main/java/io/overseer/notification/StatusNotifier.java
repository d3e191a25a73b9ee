package io.overseer.notification;

import io.overseer.messaging.Destinations;
import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.OrderTransitions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells submitters that asked for it (a reply-to on their order) what happens to their order: one JMS
 * message per {@link StatusEvent}, with {@code JMSCorrelationID} = the submitter's correlation id.
 *
 * <p>It observes every stored batch of transitions ({@link OrderTransitions}) and sends inside that same
 * JTA transaction, through the XA connection factory: a notification is delivered exactly when the
 * transition it reports commits, and a crash before the commit leaves neither.
 *
 * <p>Failure policy: a temporary reply queue whose client has gone away is not an error of the order —
 * the client finds it missing before anything is sent (auto-creation is off outside
 * {@value Destinations#REPLY_PREFIX}*), and the notifications are dropped with a warning. Any failure of
 * the send itself rolls the transition back, so the broker redelivers the message that caused it.
 */
@ApplicationScoped
public class StatusNotifier {

    private static final Logger LOG = Logger.getLogger(StatusNotifier.class.getName());

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    @JMSConnectionFactory(Destinations.CONNECTION_FACTORY)
    JMSContext jms;
    @Inject
    Clocks clocks;

    /**
     * Records where the order's notifications go. Call before the order's state record is created, in the
     * same transaction, so that its first transition (received) is announced too, and mark the record
     * ({@link OrderState#notifySubmitter()}). The caller has checked the reply-to against {@link ReplyToRule}.
     */
    public void subscribe(String orderId, ReplyTo replyTo, String correlationId) {
        em.persist(new ReplyAddress(orderId, replyTo, correlationId, clocks.now()));
    }

    void onTransitions(@Observes OrderTransitions transitions) {
        if (!transitions.submitterNotified()) {
            return;   // no reply-to: not even a lookup
        }
        ReplyAddress address = em.find(ReplyAddress.class, transitions.orderId());
        Optional<Destination> destination = destination(address.replyTo(), transitions.orderId());
        if (destination.isEmpty()) {
            return;
        }
        String processState = null;
        for (HistoryEntry entry : transitions.entries()) {
            if (entry.stepName() == null) {
                processState = entry.toState();
            }
            String taskState = processState != null ? processState : transitions.processState().name();
            StatusEvent.of(entry).ifPresent(event -> send(address, destination.get(), notification(entry, event, taskState)));
        }
    }

    private static StatusNotification notification(HistoryEntry entry, StatusEvent event, String processState) {
        boolean step = entry.stepName() != null;
        return new StatusNotification(entry.orderId(), event.wireName(), processState, entry.stepName(),
                step ? entry.toState() : null, event == StatusEvent.RECEIVED ? null : entry.reason(), entry.at());
    }

    private void send(ReplyAddress address, Destination destination, StatusNotification notification) {
        try {
            jms.createProducer()
                    .setJMSCorrelationID(address.correlationId())
                    .setProperty(Destinations.ORDER_ID, notification.orderId())
                    .setProperty(Destinations.EVENT, notification.event())
                    .send(destination, Json.write(notification));
            LOG.log(Level.FINE, "Order {0}: {1} sent to {2}",
                    new Object[] {notification.orderId(), notification.event(), address.replyTo()});
        } catch (InvalidDestinationRuntimeException e) {
            LOG.log(Level.WARNING, "Order {0}: reply destination {1} no longer exists; {2} not sent",
                    new Object[] {notification.orderId(), address.replyTo(), notification.event()});
        }
    }

    /**
     * The reply destination, if it exists. The Artemis client looks it up here (outside the transaction's
     * work) and refuses a queue that is gone and may not be auto-created: then the notifications are
     * dropped, as nobody is left to read them.
     */
    private Optional<Destination> destination(ReplyTo replyTo, String orderId) {
        try {
            return Optional.of(replyTo.kind().isTopic() ? jms.createTopic(replyTo.name()) : jms.createQueue(replyTo.name()));
        } catch (JMSRuntimeException e) {
            LOG.log(Level.WARNING, "Order {0}: reply destination {1} is not available ({2}); notifications dropped",
                    new Object[] {orderId, replyTo, e.getMessage()});
            return Optional.empty();
        }
    }
}
