package io.overseer.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;

/**
 * Tells the schedulers, through the order queue, that an order is Pending and ready to be claimed. The
 * hint leaves after the caller's transaction commits (see {@link Courier}), so it never announces a record
 * that does not exist; hints that wait together leave as one message ({@code {"batch":[orderId, …]}}),
 * claimed by one scheduler in one transaction. A hint is only a hint: the state store decides, and a lost
 * one is found by the stranded-order poller.
 */
@ApplicationScoped
public class DispatchQueue {

    private static final Map<String, Object> DISPATCH = Map.of(Destinations.MESSAGE_TYPE, OrderQueueMessage.DISPATCH.name());

    @Inject
    Courier courier;

    public void announce(String orderId) {
        courier.send(Parcel.batched(Destinations.ORDERS, "dispatch", orderId, DISPATCH, null));
    }

    /** Announces the order once {@code delay} has passed (the supervisor's backoff); the broker holds it till then. */
    public void announce(String orderId, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            announce(orderId);
            return;
        }
        courier.send(Parcel.single(Destinations.ORDERS, false, Map.of(Destinations.ORDER_ID, orderId),
                Map.of(Destinations.MESSAGE_TYPE, OrderQueueMessage.DISPATCH.name(), Destinations.ORDER_ID, orderId),
                null, delay));
    }
}
