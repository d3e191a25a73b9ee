package io.overseer.scheduler;

import io.overseer.messaging.DeadLetters;
import io.overseer.messaging.Destinations;
import io.overseer.messaging.OrderQueueMessage;
import io.overseer.messaging.UnprocessableMessageException;
import io.overseer.platform.DatabaseReachability;
import io.overseer.platform.Json;
import io.overseer.platform.Outage;
import io.overseer.statestore.Actor;
import io.overseer.statestore.IllegalTransitionException;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import jakarta.json.bind.JsonbException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The scheduler's share of the order queue (its selector, {@link OrderQueueMessage#SCHEDULER_SELECTOR}):
 * dispatch hints for Pending orders — one order id in the {@code orderId} property, or a batch in the
 * body — claimed in one transaction, and external events for waiting orders. New orders are not its
 * work: submission's listener stores them and announces them with a hint like any other, which arrives
 * here. A message that can never be processed goes to the dead-letter queue with the reason, at once. A
 * hint is never delivered again: its order waits in the state store, where the stranded-order poller
 * finds it.
 *
 * <p>No transaction around the delivery: the message is acknowledged when onMessage returns, after the
 * database commit.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = Destinations.ORDERS),
        @ActivationConfigProperty(propertyName = "messageSelector", propertyValue = OrderQueueMessage.SCHEDULER_SELECTOR),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Destinations.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OrderQueueListener implements MessageListener {

    private static final Logger LOG = Logger.getLogger(OrderQueueListener.class.getName());
    /** More ids than the application ever batches: the claim's statement would grow without bound. */
    private static final int MAX_HINTS = 1000;
    private static final int MAX_ORDER_ID = 36;

    @Inject
    Scheduler scheduler;
    @Inject
    DeadLetters deadLetters;
    @Inject
    DatabaseReachability database;

    @Override
    public void onMessage(Message message) {
        try {
            // The selector admits only spellings of DISPATCH and EVENT.
            switch (OrderQueueMessage.of(message.getStringProperty(Destinations.MESSAGE_TYPE))) {
                case DISPATCH -> dispatch(message);
                case EVENT -> event(message);
                // Outside this listener's selector: only a change of the selector could bring one here.
                case SUBMIT -> deadLetters.reject(message, Destinations.ORDERS, "a new order reached the scheduler's listener");
            }
        } catch (RuntimeException e) {
            deadLetters.retryOrReject(message, Destinations.ORDERS, e);
        } catch (JMSException e) {
            throw new IllegalStateException("Could not read a message from " + Destinations.ORDERS, e);
        }
    }

    private void dispatch(Message message) throws JMSException {
        String orderId = message.getStringProperty(Destinations.ORDER_ID);
        List<String> orderIds;
        if (orderId != null && !orderId.isBlank()) {
            orderIds = List.of(orderId);
        } else {
            try {
                orderIds = message instanceof TextMessage text ? Json.readBatch(text.getText(), String.class) : List.of();
            } catch (JsonbException e) {
                orderIds = List.of();
            }
        }
        if (orderIds.isEmpty() || orderIds.stream().anyMatch(id -> id == null || id.isBlank())) {
            deadLetters.reject(message, Destinations.ORDERS, "dispatch message without " + Destinations.ORDER_ID);
            return;
        }
        if (orderIds.size() > MAX_HINTS || orderIds.stream().anyMatch(id -> id.length() > MAX_ORDER_ID)) {
            deadLetters.reject(message, Destinations.ORDERS, "dispatch message with more than " + MAX_HINTS
                    + " order ids, or an id longer than " + MAX_ORDER_ID + " characters");
            return;
        }
        if (deadLetters.handedBackWhileDatabaseAway(message, Destinations.ORDERS)) {
            return; // this instance cannot reach its database: another instance claims the orders at once.
        }
        claim(orderIds, message);
    }

    /**
     * Claims a batch of hinted orders in one transaction; if that fails, each in its own, so that one order
     * that cannot be claimed does not hold up the others. A hint this instance cannot act on because it
     * cannot reach its database goes back to the queue for another ({@link DeadLetters#handBack}); one
     * that still fails otherwise is left to the stranded-order poller (the hint is acknowledged: a
     * redelivery could do no better, and hints that failed during an outage would otherwise end in the DLQ).
     */
    private void claim(List<String> orderIds, Message hint) {
        try {
            scheduler.claim(orderIds);
            database.reached();
        } catch (RuntimeException batchFailure) {
            if (Outage.isUnreachable(batchFailure)) {
                database.lost();
                deadLetters.handBack(hint, Destinations.ORDERS);
                return;
            }
            if (orderIds.size() == 1 || Outage.isOutage(batchFailure)) {
                LOG.log(Level.WARNING, "Could not claim {0} hinted orders ({1}); the stranded-order poller will",
                        new Object[] {orderIds.size(), batchFailure.toString()});
                return;
            }
            for (String orderId : orderIds) {
                try {
                    scheduler.claim(List.of(orderId));
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "Could not claim order {0} ({1}); the stranded-order poller will retry it",
                            new Object[] {orderId, e.toString()});
                }
            }
        }
    }

    /**
     * An external event: delivered to its order in one transaction. One that can never be delivered — no
     * such order, an order not waiting for it, a malformed message — goes to the DLQ with the reason; a
     * repeated one is acknowledged and changes nothing.
     */
    private void event(Message message) throws JMSException {
        EventMessage event;
        try {
            event = EventMessage.read(message);
        } catch (UnprocessableMessageException e) {
            deadLetters.reject(message, Destinations.ORDERS, e.getMessage());
            return;
        }
        try {
            EventReceipt receipt = scheduler.deliver(event.orderId(), event.event(), event.payload(),
                    Actor.of(Actor.Kind.submission, "jms:" + (event.sender() == null ? "?" : event.sender())));
            if (receipt == EventReceipt.UNKNOWN_ORDER) {
                deadLetters.reject(message, Destinations.ORDERS, "event " + event.event() + " for unknown order "
                        + event.orderId());
            }
        } catch (IllegalTransitionException e) {
            deadLetters.reject(message, Destinations.ORDERS, e.getMessage());
        }
    }
}
