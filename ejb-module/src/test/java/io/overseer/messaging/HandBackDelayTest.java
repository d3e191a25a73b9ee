package io.overseer.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * How long a copy handed back by an instance without its database waits before it is delivered again: soon
 * while one instance alone hands it back (its own consumers stand side by side in the broker's round), and
 * later and later once another instance handed it back too, or after many times: no hot loop when every
 * instance lacks the database.
 */
class HandBackDelayTest {

    @Test
    void oneInstanceAloneHandsBackQuicklyUntilItHasPassedItsConsumersThenBacksOff() {
        for (int times = 1; times <= DeadLetters.QUICK_HAND_BACKS; times++) {
            assertEquals(DeadLetters.QUICK_DELAY_MS, DeadLetters.handBackDelayMillis(times, false), "time " + times);
        }
        int first = DeadLetters.QUICK_HAND_BACKS + 1;
        assertEquals(1000, DeadLetters.handBackDelayMillis(first, false));
        assertEquals(2000, DeadLetters.handBackDelayMillis(first + 1, false));
        assertEquals(16_000, DeadLetters.handBackDelayMillis(first + 4, false));
        assertEquals(DeadLetters.MAX_HAND_BACK_DELAY_MS, DeadLetters.handBackDelayMillis(first + 5, false));
        assertEquals(DeadLetters.MAX_HAND_BACK_DELAY_MS, DeadLetters.handBackDelayMillis(Integer.MAX_VALUE, false));
    }

    @Test
    void onceAnotherInstanceHandedItBackTooItWaitsASecondAFewTimesThenTheDelayDoubles() {
        int lastQuick = 1 + DeadLetters.SHARED_QUICK_HAND_BACKS;
        for (int times = 2; times <= lastQuick; times++) {
            assertEquals(1000, DeadLetters.handBackDelayMillis(times, true), "time " + times);
        }
        assertEquals(2000, DeadLetters.handBackDelayMillis(lastQuick + 1, true));
        assertEquals(4000, DeadLetters.handBackDelayMillis(lastQuick + 2, true));
        assertEquals(DeadLetters.MAX_HAND_BACK_DELAY_MS, DeadLetters.handBackDelayMillis(lastQuick + 5, true));
    }
}
