package io.overseer.notification;

import io.overseer.platform.TraceParent;
import io.overseer.messaging.Courier;
import io.overseer.messaging.Destinations;
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
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells submitters that asked for it (a reply-to on their order) what happens to their order: one JMS
 * message per {@link StatusEvent}, with {@code JMSCorrelationID} = the submitter's correlation id.
 *
 * <p>It observes every stored batch of transitions ({@link OrderTransitions}) inside the transaction that
 * stores them and writes each notification into the outbox ({@link PendingNotification}) in that same
 * transaction: a notification exists exactly when its transition committed. It then leaves through the
 * {@link Courier} once the transaction commits, in the order the transitions were made, and its row is
 * deleted when the broker has it ({@link NotificationRelay}); a row left behind by a crash or a long
 * broker outage is sent again by the relay — at least once, never for a transition that rolled back.
 *
 * <p>Failure policy: a temporary reply queue whose client has gone away is not an error of the order —
 * the notification is dropped with a warning (auto-creation is off outside
 * {@value Destinations#REPLY_PREFIX}*). An order marked for notifications whose reply-to row is not there
 * has no address to be told at: as if it had never asked, nothing is sent, and its transitions commit —
 * failing them would stop the order for want of a courtesy message.
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
        if (address == null) {
            LOG.log(Level.FINE, "Order {0} (trace {1}) asked for notifications but has no reply-to; none sent",
                    new Object[] {transitions.orderId(), TraceParent.traceId(transitions.traceParent())});
            return;
        }
        String processState = null;
        for (HistoryEntry entry : transitions.entries()) {
            if (entry.stepName() == null) {
                processState = entry.toState();
            }
            String taskState = processState != null ? processState : transitions.processState().name();
            StatusEvent.of(entry).ifPresent(event -> send(address, notification(entry, event, taskState),
                    transitions.traceParent()));
        }
    }

    private static StatusNotification notification(HistoryEntry entry, StatusEvent event, String processState) {
        boolean step = entry.stepName() != null;
        return new StatusNotification(entry.orderId(), event.wireName(), processState, entry.stepName(),
                step ? entry.toState() : null, event == StatusEvent.RECEIVED ? null : entry.reason(), entry.at());
    }

    private void send(ReplyAddress address, StatusNotification notification, String traceParent) {
        ReplyTo replyTo = address.replyTo();
        PendingNotification pending = new PendingNotification(notification.orderId(), replyTo, address.correlationId(),
                notification.event(), Json.write(notification), clocks.now());
        em.persist(pending); // the id comes from the sequence now; the row is inserted at the flush
        courier.send(pending.parcel());
        LOG.log(Level.FINE, "Order {0} (trace {3}): {1} for {2}", new Object[] {notification.orderId(), notification.event(),
                replyTo, TraceParent.traceId(traceParent)});
    }
}
