package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2));

    @Test
    void ceilingDoublesUpToTheCap() {
        assertEquals(Duration.ofMillis(100), backoff.ceiling(1));
        assertEquals(Duration.ofMillis(200), backoff.ceiling(2));
        assertEquals(Duration.ofMillis(1600), backoff.ceiling(5));
        assertEquals(Duration.ofSeconds(2), backoff.ceiling(6));
        assertEquals(Duration.ofSeconds(2), backoff.ceiling(500));
    }

    @Test
    void delayIsJitteredWithinHalfToFullCeiling() {
        for (int i = 0; i < 1000; i++) {
            long delay = backoff.delay(3).toMillis();
            assertTrue(delay >= 200 && delay <= 400, "delay " + delay);
        }
    }

    @Test
    void nonsensicalBoundsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    }
}
