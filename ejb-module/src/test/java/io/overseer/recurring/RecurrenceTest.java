package io.overseer.recurring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.recurring.DaylightSaving.Missing;
import io.overseer.recurring.DaylightSaving.Repeated;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When ticks fall, in Europe/Berlin, whose clocks went forward on 2026-03-29 (02:00 CET became 03:00 CEST)
 * and go back on 2026-10-25 (03:00 CEST becomes 02:00 CET): each daylight-saving policy at both changes, the
 * end of a month, intervals, bounds, changes of a schedule, and bad input.
 */
class RecurrenceTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void aCronScheduleTicksAtItsWallClockTimesInItsZone() {
        Recurrence quarterly = cron("*/15 * * * *", DaylightSaving.DEFAULT);
        assertEquals(at("2026-06-01T10:15+02:00"), quarterly.next(at("2026-06-01T10:07+02:00")).orElseThrow());
        assertEquals(at("2026-06-01T10:30+02:00"), quarterly.next(at("2026-06-01T10:15+02:00")).orElseThrow(),
                "strictly after: a tick is not its own next");
        Recurrence weekdays = cron("0 2 * * 1-5", DaylightSaving.DEFAULT);
        assertEquals(at("2026-06-01T02:00+02:00"), weekdays.next(at("2026-05-29T03:00+02:00")).orElseThrow(),
                "Friday 03:00 to Monday 02:00");
    }

    @Test
    void aTimeTheClocksSkipRunsShiftedByTheGapOrNotAtAll() {
        Instant before = at("2026-03-29T01:00+01:00");
        assertEquals(at("2026-03-29T03:30+02:00"), cron("30 2 * * *", DaylightSaving.DEFAULT).next(before).orElseThrow(),
                "02:30 does not occur: shifted by the hour to 03:30 CEST");
        assertEquals(at("2026-03-30T02:30+02:00"),
                cron("30 2 * * *", new DaylightSaving(Repeated.ONCE, Missing.SKIP)).next(before).orElseThrow(),
                "skipped: the next 02:30 is the next day's");
    }

    @Test
    void aScheduleEveryQuarterHourRunsEachInstantOnceAcrossTheSkippedHour() {
        List<Instant> ticks = ticks(cron("*/15 * * * *", DaylightSaving.DEFAULT), at("2026-03-29T01:40+01:00"), 4);
        assertEquals(List.of(at("2026-03-29T01:45+01:00"), at("2026-03-29T03:00+02:00"), at("2026-03-29T03:15+02:00"),
                at("2026-03-29T03:30+02:00")), ticks, "02:00-02:45 shifted onto 03:00-03:45, each instant once");
        List<Instant> skipping = ticks(cron("*/15 * * * *", new DaylightSaving(Repeated.ONCE, Missing.SKIP)),
                at("2026-03-29T01:40+01:00"), 2);
        assertEquals(List.of(at("2026-03-29T01:45+01:00"), at("2026-03-29T03:00+02:00")), skipping);
    }

    @Test
    void aTimeThatOccursTwiceRunsOnceAtItsFirstOccurrenceOrTwice() {
        Instant before = at("2026-10-25T01:00+02:00");
        assertEquals(List.of(at("2026-10-25T02:30+02:00"), at("2026-10-26T02:30+01:00")),
                ticks(cron("30 2 * * *", DaylightSaving.DEFAULT), before, 2), "once: the first 02:30 (CEST)");
        assertEquals(List.of(at("2026-10-25T02:30+02:00"), at("2026-10-25T02:30+01:00"), at("2026-10-26T02:30+01:00")),
                ticks(cron("30 2 * * *", new DaylightSaving(Repeated.TWICE, Missing.SHIFT)), before, 3),
                "twice: 02:30 CEST and, an hour later, 02:30 CET");
    }

    @Test
    void aScheduleEveryQuarterHourSkipsOrRunsTheRepeatedHourByItsPolicy() {
        Instant from = at("2026-10-25T02:40+02:00");
        assertEquals(List.of(at("2026-10-25T02:45+02:00"), at("2026-10-25T03:00+01:00")),
                ticks(cron("*/15 * * * *", DaylightSaving.DEFAULT), from, 2), "once: the second pass of 02:xx is skipped");
        assertEquals(List.of(at("2026-10-25T02:45+02:00"), at("2026-10-25T02:00+01:00"), at("2026-10-25T02:15+01:00")),
                ticks(cron("*/15 * * * *", new DaylightSaving(Repeated.TWICE, Missing.SHIFT)), from, 3),
                "twice: every quarter of an hour in absolute time");
    }

    @Test
    void aMonthlyTickOnTheThirtyFirstSkipsShorterMonthsAndTheLastMinuteOfAMonthIsItsOwn() {
        Recurrence thirtyFirst = cron("0 12 31 * *", DaylightSaving.DEFAULT);
        assertEquals(at("2026-05-31T12:00+02:00"), thirtyFirst.next(at("2026-03-31T12:00+02:00")).orElseThrow(),
                "April has 30 days");
        Recurrence endOfDay = cron("59 23 * * *", DaylightSaving.DEFAULT);
        assertEquals(List.of(at("2026-04-30T23:59+02:00"), at("2026-05-01T23:59+02:00")),
                ticks(endOfDay, at("2026-04-30T23:58+02:00"), 2));
        Recurrence leapDay = cron("0 0 29 2 *", DaylightSaving.DEFAULT);
        assertEquals(at("2028-02-29T00:00+01:00"), leapDay.next(at("2026-03-01T00:00+01:00")).orElseThrow());
    }

    @Test
    void anIntervalRunsInAbsoluteTimeFromItsStartWhateverTheClocksDo() {
        Recurrence hourly = new Recurrence(Cadence.every(Duration.ofHours(1)), BERLIN, at("2026-03-29T00:00+01:00"), null,
                DaylightSaving.DEFAULT);
        assertEquals(List.of(at("2026-03-29T00:00+01:00"), at("2026-03-29T01:00+01:00"), at("2026-03-29T03:00+02:00")),
                ticks(hourly, at("2026-03-28T12:00Z"), 3), "01:00 CET and 03:00 CEST are an hour apart");
        assertEquals(at("2026-03-29T03:00+02:00"), hourly.next(at("2026-03-29T01:00+01:00")).orElseThrow());
        assertEquals(at("2026-03-29T03:00+02:00"), hourly.next(at("2026-03-29T01:00:00.001+01:00")).orElseThrow());
    }

    @Test
    void noTickFallsBeforeTheStartOrAfterTheEnd() {
        Recurrence bounded = new Recurrence(Cadence.cron("0 * * * *"), BERLIN, at("2026-06-01T10:30+02:00"),
                at("2026-06-01T12:00+02:00"), DaylightSaving.DEFAULT);
        assertEquals(List.of(at("2026-06-01T11:00+02:00"), at("2026-06-01T12:00+02:00")),
                ticks(bounded, at("2026-06-01T00:00+02:00"), 5), "from the start, up to and including the end");
        assertEquals(Optional.empty(), bounded.next(at("2026-06-01T12:00+02:00")));
    }

    @Test
    void aScheduleChangedBetweenTwoTicksFiresNeitherTwiceNorNever() {
        Instant fired = at("2026-06-01T10:00+02:00");
        Instant changedAt = at("2026-06-01T10:20+02:00");
        Recurrence quarterly = cron("*/15 * * * *", DaylightSaving.DEFAULT);
        Instant first = quarterly.next(changedAt).orElseThrow();
        assertEquals(at("2026-06-01T10:30+02:00"), first, "the new rule's first tick after the change, not 10:15");
        assertTrue(first.isAfter(fired), "never the tick the old rule already fired");
        Recurrence hourly = cron("0 * * * *", DaylightSaving.DEFAULT);
        assertEquals(at("2026-06-01T11:00+02:00"), hourly.next(changedAt).orElseThrow());
    }

    @Test
    void badInputIsRefusedSayingWhatIsWrong() {
        IllegalArgumentException cron = assertThrows(IllegalArgumentException.class, () -> Cadence.cron("61 * * * *"));
        assertTrue(cron.getMessage().contains("Unix dialect") && cron.getMessage().contains("61 * * * *"), cron.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Cadence.cron("* * * *"), "four fields");
        assertThrows(IllegalArgumentException.class, () -> Cadence.cron(" "));
        IllegalArgumentException zone = assertThrows(IllegalArgumentException.class, () -> Recurrence.zone("Europe/Atlantis"));
        assertTrue(zone.getMessage().contains("Europe/Atlantis"), zone.getMessage());
        IllegalArgumentException order = assertThrows(IllegalArgumentException.class, () -> new Recurrence(Cadence.cron("0 * * * *"),
                BERLIN, at("2026-06-02T00:00Z"), at("2026-06-01T00:00Z"), DaylightSaving.DEFAULT));
        assertTrue(order.getMessage().contains("before the start"), order.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Cadence.every(Duration.ofMillis(500)));
        assertThrows(IllegalArgumentException.class, () -> new Recurrence(Cadence.every(Duration.ofMinutes(1)), BERLIN, null,
                null, DaylightSaving.DEFAULT), "an interval without its start");
        assertEquals(Optional.empty(), cron("0 0 30 2 *", DaylightSaving.DEFAULT).next(at("2026-01-01T00:00Z")),
                "30 February never comes: no tick, and no endless search");
    }

    private static Recurrence cron(String expression, DaylightSaving policy) {
        return new Recurrence(Cadence.cron(expression), BERLIN, null, null, policy);
    }

    private static List<Instant> ticks(Recurrence recurrence, Instant after, int count) {
        return recurrence.ticks(after, null, count);
    }

    static Instant at(String offsetDateTime) {
        return OffsetDateTime.parse(offsetDateTime).toInstant();
    }
}
