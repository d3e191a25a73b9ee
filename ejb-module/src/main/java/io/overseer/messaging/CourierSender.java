package io.overseer.messaging;

import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends one drain of the {@link Courier} in one broker transaction — a JTA transaction with no database
 * in it, whose one resource is the pool's local broker session (LocalTransaction, decision 18): one
 * journal sync and one commit round trip for the whole drain instead of one per message. Parcels that
 * share a batch key become one message (up to {@code maxBatch} items each).
 *
 * <p>The hops of an order's work (agent requests and replies, dispatch hints: {@link Destinations#isHop}) are
 * sent non-persistent unless {@code overseer.messaging.hops=persistent} ({@link Courier} reads it): the broker keeps them in memory and
 * writes no journal record for them, neither at the send nor at the acknowledgement. Their loss in a broker
 * crash is what the state store already survives (an attempt whose request or reply is lost expires and is
 * retried under the same idempotency key; a lost hint's order is found by the stranded-order poller), so the
 * price of a crash is a complete-by's wait for the attempts in flight, not an order (decision 0026).
 */
@Stateless
public class CourierSender {

    private static final Logger LOG = Logger.getLogger(CourierSender.class.getName());

    @Inject
    @JMSConnectionFactory(Destinations.CONNECTION_FACTORY)
    JMSContext jms;
    @Inject
    Clocks clocks;

    /**
     * Sends every parcel that has not expired; throws {@link BrokerUnavailableException} if the broker
     * could not take them (nothing is sent then) — an application exception, so that the container does
     * not log a stack trace for each retry of the courier during a broker outage.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void send(List<Parcel> parcels, int maxBatch, boolean persistentHops) throws BrokerUnavailableException {
        try {
            sendAll(parcels, maxBatch, persistentHops);
        } catch (JMSRuntimeException e) {
            throw new BrokerUnavailableException(e);
        }
    }

    /**
     * As {@link #send}, for a drain of non-persistent hops only, with no transaction: a broker transaction
     * buys such a drain nothing (there is no journal record to sync, and a hop lost with the broker is
     * recovered by the state store either way), while it costs a container transaction and a commit round
     * trip per drain — at a steady rate, one per message. Outside a transaction the broker's client sends a
     * non-persistent message without waiting for an answer; a broken connection still fails the send, so
     * an outage is seen as before ({@link Courier#isStalled}).
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sendHops(List<Parcel> parcels, int maxBatch) throws BrokerUnavailableException {
        try {
            sendAll(parcels, maxBatch, false);
        } catch (JMSRuntimeException e) {
            throw new BrokerUnavailableException(e);
        }
    }

    private void sendAll(List<Parcel> parcels, int maxBatch, boolean persistentHops) {
        OffsetDateTime now = clocks.now();
        Map<String, List<Parcel>> batches = new LinkedHashMap<>();
        for (Parcel parcel : parcels) {
            if (parcel.isExpired(now)) {
                continue;
            }
            if (parcel.batchKey() == null) {
                sendOne(parcel, parcel.item(), parcel.expiresAt(), now, persistentHops);
            } else {
                batches.computeIfAbsent(parcel.destination() + "|" + parcel.batchKey(), k -> new ArrayList<>()).add(parcel);
            }
        }
        for (List<Parcel> batch : batches.values()) {
            for (int from = 0; from < batch.size(); from += maxBatch) {
                List<Parcel> part = batch.subList(from, Math.min(batch.size(), from + maxBatch));
                sendOne(part.get(0), Map.of("batch", part.stream().map(Parcel::item).toList()), latestExpiry(part), now,
                        persistentHops);
            }
        }
    }

    /** The batch message lives as long as its longest-lived item; null (never expires) if any never does. */
    private static OffsetDateTime latestExpiry(List<Parcel> part) {
        OffsetDateTime latest = null;
        for (Parcel parcel : part) {
            if (parcel.expiresAt() == null) {
                return null;
            }
            latest = latest == null || parcel.expiresAt().isAfter(latest) ? parcel.expiresAt() : latest;
        }
        return latest;
    }

    /**
     * The destination object. The client asks the broker whether a queue exists each time one is made:
     * the application's own destinations are made once and kept (they are only names); a client's reply
     * destination is looked up each time, as it may be gone.
     */
    private Destination destination(Parcel parcel) {
        if (!Destinations.isInternal(parcel.destination())) {
            return parcel.topic() ? jms.createTopic(parcel.destination()) : jms.createQueue(parcel.destination());
        }
        return INTERNAL.computeIfAbsent((parcel.topic() ? "topic:" : "queue:") + parcel.destination(),
                key -> parcel.topic() ? jms.createTopic(parcel.destination()) : jms.createQueue(parcel.destination()));
    }

    /**
     * Whether the broker answered that the destination does not exist or may not be used — as opposed to
     * not answering. The Artemis client reports a missing queue as a plain JMSException ("There is no
     * queue with name …"), so its message is what tells.
     */
    static boolean isGone(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidDestinationRuntimeException || cause instanceof JMSSecurityRuntimeException
                    || cause instanceof jakarta.jms.InvalidDestinationException
                    || cause instanceof jakarta.jms.JMSSecurityException) {
                return true;
            }
            String message = cause.getMessage();
            if (message != null && (message.contains("There is no queue") || message.contains("There is no topic")
                    || message.contains("does not exist"))) {
                return true;
            }
        }
        return false;
    }

    private static final java.util.concurrent.ConcurrentMap<String, Destination> INTERNAL =
            new java.util.concurrent.ConcurrentHashMap<>();

    private void sendOne(Parcel parcel, Object body, OffsetDateTime expiresAt, OffsetDateTime now, boolean persistentHops) {
        Destination destination;
        try {
            destination = destination(parcel);
        } catch (JMSRuntimeException e) {
            if (!isGone(e)) {
                throw e; // the broker's failure: the courier retries the drain
            }
            // Only a client's reply destination can be missing (its connection went away, or it is not one
            // the application may send to): nobody is left to read.
            LOG.log(Level.WARNING, "Destination {0} is not available ({1}); a message to it was dropped",
                    new Object[] {parcel.destination(), e.getMessage()});
            return;
        }
        JMSProducer producer = jms.createProducer();
        if (!persistentHops && Destinations.isHop(parcel.destination())) {
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        }
        parcel.properties().forEach(producer::setProperty);
        if (parcel.correlationId() != null) {
            producer.setJMSCorrelationID(parcel.correlationId());
        }
        if (!parcel.delay().isZero()) {
            producer.setDeliveryDelay(parcel.delay().toMillis());
        }
        if (expiresAt != null) {
            producer.setTimeToLive(Math.max(1, Duration.between(now, expiresAt).toMillis()));
        }
        try {
            producer.send(destination, body instanceof String text ? text : Json.write(body));
        } catch (JMSRuntimeException e) {
            if (!isGone(e)) {
                throw e;
            }
            LOG.log(Level.WARNING, "Destination {0} refused a message, dropped: {1}",
                    new Object[] {parcel.destination(), e.getMessage()});
        }
    }
}
