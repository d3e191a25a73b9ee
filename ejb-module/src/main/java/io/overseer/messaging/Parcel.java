package io.overseer.messaging;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;

/**
 * One message the application decided to send, waiting in the {@link Courier} until the transaction
 * that decided it has committed. Parcels with the same {@code batchKey} that wait together leave as ONE
 * message whose body is {@code {"batch":[item, …]}} (so a consumer pays its per-message costs once per
 * batch); a parcel without a batch key leaves alone, its item as the body.
 *
 * @param topic       whether {@code destination} names a topic
 * @param batchKey    parcels that may share a message; null: never batched
 * @param item        the body (a JSON-B value, or a String sent as it is)
 * @param properties  message properties; parcels of one batch must carry the same ones
 * @param delay       delivery delay (the broker holds the message until then)
 * @param expiresAt   after this, the message is useless: not sent, and expires in the broker; null: never
 * @param receipt     if not null, announced in a {@link Delivered} event once the broker has the message
 */
public record Parcel(String destination, boolean topic, String batchKey, Object item, Map<String, Object> properties,
                     String correlationId, Duration delay, OffsetDateTime expiresAt, String receipt) {

    public Parcel {
        properties = Map.copyOf(properties);
        delay = delay == null ? Duration.ZERO : delay;
    }

    /** A parcel that may share a message with others of the same key. */
    public static Parcel batched(String queue, String batchKey, Object item, Map<String, Object> properties,
                                 OffsetDateTime expiresAt) {
        return new Parcel(queue, false, batchKey, item, properties, null, Duration.ZERO, expiresAt, null);
    }

    /** A parcel that leaves as a message of its own. */
    public static Parcel single(String destination, boolean topic, Object item, Map<String, Object> properties,
                                String correlationId, Duration delay) {
        return new Parcel(destination, topic, null, item, properties, correlationId, delay, null, null);
    }

    /** This parcel, announced with {@code receipt} once the broker has it (see {@link Delivered}). */
    public Parcel withReceipt(String receipt) {
        return new Parcel(destination, topic, batchKey, item, properties, correlationId, delay, expiresAt, receipt);
    }

    public boolean isExpired(OffsetDateTime now) {
        return expiresAt != null && !expiresAt.isAfter(now);
    }
}
