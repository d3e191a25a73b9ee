package io.overseer.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UnansweredTest {

    private static final long S = 1_000_000_000L;

    private final Unanswered unanswered = new Unanswered();

    @Test
    void answeredInTimeIsNoStreak() {
        unanswered.record(0, true);

        assertEquals(Duration.ZERO, unanswered.duration(600 * S));
    }

    @Test
    void aStreakCountsFromTheStartOfItsFirstLateAttempt() {
        unanswered.record(10 * S, false); // the borrow started at 10 s and did not come back in time
        unanswered.record(13 * S, false); // still waiting on it
        unanswered.record(40 * S, false); // a new borrow, late again

        assertEquals(Duration.ofSeconds(140), unanswered.duration(150 * S));
    }

    @Test
    void oneAnswerInTimeEndsTheStreak() {
        unanswered.record(10 * S, false);
        unanswered.record(70 * S, true);

        assertEquals(Duration.ZERO, unanswered.duration(200 * S));

        unanswered.record(300 * S, false);
        assertEquals(Duration.ofSeconds(5), unanswered.duration(305 * S), "a new streak starts afresh");
    }

    @Test
    void aProbeNobodyCalledIsNotLate() {
        unanswered.record(0, true);
        // an hour without a call; then one late attempt
        unanswered.record(3600 * S, false);

        assertEquals(Duration.ofSeconds(3), unanswered.duration(3603 * S));
    }
}
