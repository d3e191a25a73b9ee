package io.overseer.scheduler;

import io.overseer.messaging.Destinations;
import io.overseer.messaging.OrderQueueMessage;
import io.overseer.platform.Json;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import java.time.Duration;
import java.util.Map;

/**
 * Tells the schedulers, through the order queue, that an order is Pending and ready to be claimed.
 * Sent inside the caller's transaction, so the message exists only if the Pending record does. The
 * message is only a hint: the state store decides, and a lost hint is found by the stranded poller.
 */
@ApplicationScoped
public class DispatchQueue {

    @Inject
    @JMSConnectionFactory(Destinations.CONNECTION_FACTORY)
    JMSContext jms;

    public void announce(String orderId) {
        announce(orderId, Duration.ZERO);
    }

    /** Announces the order once {@code delay} has passed (the supervisor's backoff); the broker holds it till then. */
    public void announce(String orderId, Duration delay) {
        jms.createProducer()
                .setDeliveryDelay(Math.max(0, delay.toMillis()))
                .setProperty(Destinations.MESSAGE_TYPE, OrderQueueMessage.DISPATCH.name())
                .setProperty(Destinations.ORDER_ID, orderId)
                .send(jms.createQueue(Destinations.ORDERS), Json.write(Map.of(Destinations.ORDER_ID, orderId)));
    }
}
