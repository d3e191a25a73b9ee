package io.overseer.agent;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with full jitter and a cap, for retries inside one attempt's deadline. Jitter
 * keeps many agents that failed together from retrying together.
 */
public record Backoff(Duration initial, Duration cap) {

    public Backoff {
        if (initial.isNegative() || initial.isZero() || cap.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 < initial <= cap, got " + initial + ", " + cap);
        }
    }

    /** The upper bound of the wait before retry number {@code retry} (1 for the first retry). */
    public Duration ceiling(int retry) {
        int shift = Math.min(Math.max(retry - 1, 0), 30);
        long millis = initial.toMillis() << shift;
        return millis <= 0 || millis > cap.toMillis() ? cap : Duration.ofMillis(millis);
    }

    /** A random wait in [ceiling/2, ceiling]. */
    public Duration delay(int retry) {
        long ceiling = ceiling(retry).toMillis();
        return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }
}
