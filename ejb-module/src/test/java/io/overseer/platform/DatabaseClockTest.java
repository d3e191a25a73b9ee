package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseClockTest {

    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00Z");

    @Test
    void readsTheDatabaseTimeFromTheLocalClockPlusTheMeasuredOffset() {
        DatabaseClock clock = new DatabaseClock(Clock.fixed(T0, ZoneOffset.UTC));

        // Asked at T0, answered at T0+20ms; the database said T0+5s at the midpoint (T0+10ms).
        Duration offset = clock.adjust(T0, T0.plusSeconds(5).plusMillis(10), T0.plusMillis(20));

        assertEquals(Duration.ofSeconds(5), offset);
        assertEquals(T0.plusSeconds(5), clock.instant());
    }

    @Test
    void aDatabaseBehindTheJvmGivesANegativeOffset() {
        DatabaseClock clock = new DatabaseClock(Clock.fixed(T0, ZoneOffset.UTC));

        clock.adjust(T0, T0.minusMillis(1500), T0);

        assertEquals(T0.minusMillis(1500), clock.instant());
    }

    @Test
    void ofSeveralReadingsTheOneWithTheShortestRoundTripCounts() {
        DatabaseClock clock = new DatabaseClock(Clock.fixed(T0, ZoneOffset.UTC));

        // The same clocks, read three times: a slow answer's midpoint is 150 ms off, the quick one's 0.
        Duration offset = clock.adjust(List.of(
                new DatabaseClock.Reading(T0, T0.plusMillis(10), T0.plusMillis(320)),
                new DatabaseClock.Reading(T0.plusSeconds(1), T0.plusSeconds(1).plusMillis(1), T0.plusSeconds(1).plusMillis(2)),
                new DatabaseClock.Reading(T0.plusSeconds(2), T0.plusSeconds(2).plusMillis(5), T0.plusSeconds(2).plusMillis(40))));

        assertEquals(Duration.ZERO, offset);
    }

    @Test
    void untilMeasuredItIsTheLocalClock() {
        assertEquals(T0, new DatabaseClock(Clock.fixed(T0, ZoneOffset.UTC)).instant());
    }
}
