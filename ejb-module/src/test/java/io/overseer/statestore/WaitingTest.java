package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class WaitingTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    @Test
    void aRecordThatWaitsForNothingStoresNullAndReadsAsNone() {
        assertSame(Waiting.NONE, Waiting.of(null));
        assertNull(Waiting.NONE.until(null).stored(), "never the shared NONE: the provider would manage it");
        assertNull(Waiting.held("op", "op", T0).clear().stored());
        assertFalse(Waiting.NONE.isLater(T0));
    }

    @Test
    void whatIsDueWaitsForTheEarliestAndNothingMoreDueChangesNothing() {
        Waiting retry = Waiting.NONE.due(T0.plusSeconds(60));
        assertEquals(T0.plusSeconds(5), retry.due(T0.plusSeconds(5)).notBefore());
        assertEquals(T0.plusSeconds(60), retry.due(T0.plusSeconds(90)).notBefore());
        assertEquals(T0.plusSeconds(60), retry.due(null).notBefore());
        assertEquals(T0.plusSeconds(90), retry.until(T0.plusSeconds(90)).notBefore(), "until replaces, due does not");
    }

    @Test
    void parkingDropsTheInstantUnparkingKeepsItAndAStartClearsTheLimitButNotThePause() {
        Waiting limited = Waiting.NONE.throttle("charge", T0.plusSeconds(3));
        Waiting parked = limited.park("reserve");
        assertNull(parked.notBefore(), "a parked wait never counts as a failure: no instant");
        assertEquals("reserve", parked.pausedOn());
        assertEquals("charge", parked.throttledOn());

        Waiting resumed = Waiting.held("reserve", null, T0.plusSeconds(7)).unpark();
        assertNull(resumed.pausedOn());
        assertEquals(T0.plusSeconds(7), resumed.notBefore());

        Waiting started = Waiting.held("reserve", "charge", T0.plusSeconds(7)).started();
        assertEquals("reserve", started.pausedOn(), "another branch's pause holds until a resume clears it");
        assertNull(started.throttledOn());
        assertNull(started.notBefore());
    }

    @Test
    void anInstantThatHasPassedLapses() {
        Waiting later = Waiting.NONE.until(T0.plusSeconds(10));
        assertTrue(later.isLater(T0));
        assertEquals(T0.plusSeconds(10), later.lapse(T0).notBefore());
        assertNull(later.lapse(T0.plusSeconds(10)).notBefore(), "at the instant itself it is due");
    }
}
