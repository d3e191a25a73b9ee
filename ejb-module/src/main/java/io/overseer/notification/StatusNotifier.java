package io.overseer.notification;

import io.overseer.messaging.Courier;
import io.overseer.messaging.Destinations;
import io.overseer.messaging.Parcel;
import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.OrderTransitions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells submitters that asked for it (a reply-to on their order) what happens to their order: one JMS
 * message per {@link StatusEvent}, with {@code JMSCorrelationID} = the submitter's correlation id.
 *
 * <p>It observes every stored batch of transitions ({@link OrderTransitions}) inside the transaction that
 * stores them, and hands the notifications to the {@link Courier}: they leave once that transaction
 * commits — never for a transition that rolled back — in the order the transitions were made.
 *
 * <p>Failure policy: a temporary reply queue whose client has gone away is not an error of the order —
 * the notification is dropped with a warning (auto-creation is off outside
 * {@value Destinations#REPLY_PREFIX}*). A crash between the commit and the send loses the notifications
 * of that moment: they are hints to a watcher, who can read the order's history (or its event stream)
 * for the truth.
 */
@ApplicationScoped
public class StatusNotifier {

    private static final Logger LOG = Logger.getLogger(StatusNotifier.class.getName());

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    Courier courier;
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
        String processState = null;
        for (HistoryEntry entry : transitions.entries()) {
            if (entry.stepName() == null) {
                processState = entry.toState();
            }
            String taskState = processState != null ? processState : transitions.processState().name();
            StatusEvent.of(entry).ifPresent(event -> send(address, notification(entry, event, taskState)));
        }
    }

    private static StatusNotification notification(HistoryEntry entry, StatusEvent event, String processState) {
        boolean step = entry.stepName() != null;
        return new StatusNotification(entry.orderId(), event.wireName(), processState, entry.stepName(),
                step ? entry.toState() : null, event == StatusEvent.RECEIVED ? null : entry.reason(), entry.at());
    }

    private void send(ReplyAddress address, StatusNotification notification) {
        ReplyTo replyTo = address.replyTo();
        courier.send(Parcel.single(replyTo.name(), replyTo.kind().isTopic(), Json.write(notification),
                Map.of(Destinations.ORDER_ID, notification.orderId(), Destinations.EVENT, notification.event()),
                address.correlationId(), null));
        LOG.log(Level.FINE, "Order {0}: {1} for {2}", new Object[] {notification.orderId(), notification.event(), replyTo});
    }
}
