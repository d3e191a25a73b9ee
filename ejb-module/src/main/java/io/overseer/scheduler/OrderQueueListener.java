package io.overseer.scheduler;

import io.overseer.messaging.DeadLetters;
import io.overseer.messaging.Destinations;
import io.overseer.messaging.OrderMessages;
import io.overseer.messaging.OrderQueueMessage;
import io.overseer.submission.InvalidOrderException;
import io.overseer.submission.OrderSubmission;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Consumes the order queue: new orders from legacy clients over any protocol the broker speaks (stored
 * and claimed in one transaction, see {@link OrderMessages}) and dispatch hints for Pending orders. A
 * message that can never be processed goes to the dead-letter queue with the reason, at once; any other
 * failure rolls back, and the broker redelivers it (max-delivery-attempts in broker.xml), then
 * dead-letters it.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = Destinations.ORDERS),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Destinations.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")
})
public class OrderQueueListener implements MessageListener {

    @Inject
    Scheduler scheduler;
    @Inject
    OrderSubmission submission;
    @Inject
    DeadLetters deadLetters;

    @Override
    public void onMessage(Message message) {
        try {
            OrderQueueMessage type;
            try {
                type = OrderQueueMessage.of(message.getStringProperty(Destinations.MESSAGE_TYPE));
            } catch (IllegalArgumentException e) {
                deadLetters.reject(message, Destinations.ORDERS, "unknown " + Destinations.MESSAGE_TYPE);
                return;
            }
            switch (type) {
                case DISPATCH -> dispatch(message);
                case SUBMIT -> submit(message);
            }
        } catch (JMSException e) {
            throw new IllegalStateException("Could not read a message from " + Destinations.ORDERS, e);
        }
    }

    private void dispatch(Message message) throws JMSException {
        String orderId = message.getStringProperty(Destinations.ORDER_ID);
        if (orderId == null || orderId.isBlank()) {
            deadLetters.reject(message, Destinations.ORDERS, "dispatch message without " + Destinations.ORDER_ID);
            return;
        }
        scheduler.dispatch(orderId);
    }

    private void submit(Message message) throws JMSException {
        try {
            scheduler.dispatch(submission.accept(OrderMessages.read(message)));
        } catch (InvalidOrderException e) {
            deadLetters.reject(message, Destinations.ORDERS, e.getMessage());
        }
    }
}
