package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The call-start pacing rule: at most N starts per second of the database clock, none in its guard band. */
class CallPacerTest {

    private static final OffsetDateTime SECOND = OffsetDateTime.of(2026, 11, 24, 12, 0, 7, 0, ZoneOffset.UTC);

    @Test
    void startsAreCountedPerSecondAndTheNextSecondStartsAfresh() {
        OffsetDateTime now = SECOND.plusNanos(200_000_000);
        CallPacer.Decision first = CallPacer.decide(null, 0, now, 2);
        assertTrue(first.admitted());
        assertEquals(SECOND, first.windowStart());
        assertEquals(1, first.starts());
        CallPacer.Decision second = CallPacer.decide(SECOND, 1, now, 2);
        assertTrue(second.admitted());
        CallPacer.Decision third = CallPacer.decide(SECOND, 2, now, 2);
        assertFalse(third.admitted(), "the limit of 2 reached");
        assertEquals(SECOND.plusSeconds(1), third.retryAt());
        CallPacer.Decision later = CallPacer.decide(SECOND, 2, SECOND.plusSeconds(1).plusNanos(1_000), 2);
        assertTrue(later.admitted(), "a new second");
        assertEquals(1, later.starts());
    }

    @Test
    void noCallStartsInTheLastPartOfASecondWhereItsTravelCouldCarryItIntoTheNext() {
        CallPacer.Decision late = CallPacer.decide(null, 0, SECOND.plus(CallPacer.ADMITTING), 20);
        assertFalse(late.admitted());
        assertEquals(SECOND.plusSeconds(1), late.retryAt());
        assertTrue(CallPacer.decide(null, 0, SECOND.plus(CallPacer.ADMITTING).minusNanos(1_000_000), 20).admitted());
    }
}
