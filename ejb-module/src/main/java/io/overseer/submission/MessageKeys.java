package io.overseer.submission;

import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * Which order each business key of a message client created: the order queue's {@code idempotencyKey}.
 * Kept behind this interface because one channel-neutral key store (the HTTP Idempotency-Key's) is meant
 * to serve both channels.
 */
public interface MessageKeys {

    /** An order created under a key, and the fingerprint of the request that created it. */
    record Taken(String orderId, String fingerprint) {
    }

    /**
     * Records, in the caller's transaction, that {@code key} of {@code scope} creates {@code orderId} — or
     * returns what an earlier submission with that key created. Concurrent claims of one key are
     * serialised: exactly one creates an order, the others see it.
     */
    Optional<Taken> claim(String scope, String key, String fingerprint, String orderId, OffsetDateTime now);
}
