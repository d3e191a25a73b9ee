package io.overseer.recurring;

import static io.overseer.recurring.RecurrenceTest.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.recurring.TickPlanner.Plan;
import io.overseer.recurring.TickPlanner.Position;
import io.overseer.recurring.TickPlanner.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which ticks submit an order, over an injected "now": on time, after downtime under each missed-tick policy,
 * beside an unfinished previous order under each overlap policy, with jitter, far behind, and at the end.
 */
class TickPlannerTest {

    private static final Duration ON_TIME = Duration.ofMinutes(1);
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final Recurrence HOURLY = new Recurrence(Cadence.cron("0 * * * *"), BERLIN, null, null, DaylightSaving.DEFAULT);

    @Test
    void aTickOnTimeFiresAndTheNextIsDue() {
        Plan plan = plan(schedule(MissedTicks.SKIP, Overlap.SKIP), at("2026-06-01T10:00+02:00"), at("2026-06-01T10:00:01+02:00"));
        assertEquals(List.of(at("2026-06-01T10:00+02:00")), plan.fire());
        assertEquals(0, plan.missed());
        assertEquals(at("2026-06-01T11:00+02:00"), plan.nextDue());
        Plan early = plan(schedule(MissedTicks.SKIP, Overlap.SKIP), at("2026-06-01T10:00+02:00"), at("2026-06-01T09:59:59+02:00"));
        assertEquals(List.of(), early.fire(), "not yet due");
        assertEquals(at("2026-06-01T10:00+02:00"), early.nextDue());
    }

    @Test
    void afterDowntimeFireOnceSubmitsOneOrderForTheLatestTick() {
        Instant back = at("2026-06-01T13:00:30+02:00");
        Plan plan = plan(schedule(MissedTicks.FIRE_ONCE, Overlap.SKIP), at("2026-06-01T10:00+02:00"), back);
        assertEquals(List.of(at("2026-06-01T13:00+02:00")), plan.fire());
        assertEquals(3, plan.missed(), "10:00, 11:00 and 12:00");
        Plan late = plan(schedule(MissedTicks.FIRE_ONCE, Overlap.SKIP), at("2026-06-01T10:00+02:00"), at("2026-06-01T13:20+02:00"));
        assertEquals(List.of(at("2026-06-01T13:00+02:00")), late.fire(), "once now, even when the latest is late too");
        assertEquals(at("2026-06-01T14:00+02:00"), late.nextDue());
    }

    @Test
    void afterDowntimeSkipSubmitsOnlyATickOnTime() {
        Plan onTime = plan(schedule(MissedTicks.SKIP, Overlap.SKIP), at("2026-06-01T10:00+02:00"), at("2026-06-01T13:00:30+02:00"));
        assertEquals(List.of(at("2026-06-01T13:00+02:00")), onTime.fire());
        assertEquals(3, onTime.missed());
        Plan late = plan(schedule(MissedTicks.SKIP, Overlap.SKIP), at("2026-06-01T10:00+02:00"), at("2026-06-01T13:20+02:00"));
        assertEquals(List.of(), late.fire());
        assertEquals(4, late.missed());
        assertEquals(at("2026-06-01T14:00+02:00"), late.nextDue());
    }

    @Test
    void afterDowntimeCatchUpSubmitsTheMissedTicksWithinItsWindowUpToItsCount() {
        Instant back = at("2026-06-01T13:00:30+02:00");
        MissedTicks catchUp = MissedTicks.catchUp(Duration.ofMinutes(150), 5);
        Plan window = plan(schedule(catchUp, Overlap.ALLOW), at("2026-06-01T10:00+02:00"), back);
        assertEquals(List.of(at("2026-06-01T11:00+02:00"), at("2026-06-01T12:00+02:00"), at("2026-06-01T13:00+02:00")),
                window.fire(), "10:00 is older than the window (10:30:30); 13:00 is on time");
        assertEquals(1, window.missed());
        Plan count = plan(schedule(MissedTicks.catchUp(Duration.ofDays(1), 1), Overlap.ALLOW), at("2026-06-01T10:00+02:00"), back);
        assertEquals(List.of(at("2026-06-01T12:00+02:00"), at("2026-06-01T13:00+02:00")), count.fire(),
                "one missed tick at most, the latest, and the tick on time");
        Plan oneAtATime = plan(schedule(catchUp, Overlap.SKIP), at("2026-06-01T10:00+02:00"), back);
        assertEquals(List.of(at("2026-06-01T11:00+02:00")), oneAtATime.fire(), "never two orders of the schedule at once");
        assertEquals(2, oneAtATime.overlapped());
    }

    @Test
    void whileThePreviousOrderRunsSkipDropsTheTickBufferKeepsOneAndAllowFiresIt() {
        Instant due = at("2026-06-01T10:00+02:00");
        Instant now = at("2026-06-01T10:00:01+02:00");
        Plan skipped = TickPlanner.plan(schedule(MissedTicks.FIRE_ONCE, Overlap.SKIP), new Position(due, null, true), now, ON_TIME);
        assertEquals(List.of(), skipped.fire());
        assertEquals(1, skipped.overlapped());
        Plan allowed = TickPlanner.plan(schedule(MissedTicks.FIRE_ONCE, Overlap.ALLOW), new Position(due, null, true), now, ON_TIME);
        assertEquals(List.of(due), allowed.fire());

        Schedule buffering = schedule(MissedTicks.FIRE_ONCE, Overlap.BUFFER_ONE);
        Plan kept = TickPlanner.plan(buffering, new Position(due, null, true), now, ON_TIME);
        assertEquals(List.of(), kept.fire());
        assertEquals(due, kept.buffered());
        Plan stillBusy = TickPlanner.plan(buffering, new Position(kept.nextDue(), kept.buffered(), true),
                at("2026-06-01T11:00:01+02:00"), ON_TIME);
        assertEquals(due, stillBusy.buffered(), "one buffered at most: the first is kept");
        assertEquals(1, stillBusy.overlapped(), "11:00 skipped");
        Plan finished = TickPlanner.plan(buffering, new Position(stillBusy.nextDue(), stillBusy.buffered(), false),
                at("2026-06-01T11:30+02:00"), ON_TIME);
        assertEquals(List.of(due), finished.fire(), "the buffered tick fires once the previous order finished");
        assertNull(finished.buffered());
    }

    @Test
    void jitterDelaysEachTickByAFixedAmountWithinItsBound() {
        Duration bound = Duration.ofSeconds(30);
        Jitter jitter = new Jitter(bound);
        Instant tick = at("2026-06-01T10:00+02:00");
        Set<Instant> spread = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            Instant fireAt = jitter.fireAt("schedule-" + i, tick);
            assertTrue(!fireAt.isBefore(tick) && fireAt.isBefore(tick.plus(bound)), fireAt.toString());
            assertEquals(fireAt, jitter.fireAt("schedule-" + i, tick), "every instance computes the same");
            spread.add(fireAt);
        }
        assertTrue(spread.size() > 50, "a hundred schedules sharing a minute spread over it: " + spread.size() + " fire times");
        Schedule jittered = new Schedule("schedule-7", HOURLY, MissedTicks.SKIP, Overlap.SKIP, jitter);
        Instant fireAt = jitter.fireAt("schedule-7", tick);
        assertEquals(List.of(), TickPlanner.plan(jittered, new Position(tick, null, false), fireAt.minusMillis(1), ON_TIME).fire());
        assertEquals(List.of(tick), TickPlanner.plan(jittered, new Position(tick, null, false), fireAt, ON_TIME).fire(),
                "the order is keyed by the tick, not by its fire time");
    }

    @Test
    void aScheduleFarBehindIsWalkedInBoundedStepsAndThenFiresOnce() {
        Recurrence everySecond = new Recurrence(Cadence.every(Duration.ofSeconds(1)), BERLIN, at("2026-06-01T00:00Z"), null,
                DaylightSaving.DEFAULT);
        Schedule schedule = new Schedule("s", everySecond, MissedTicks.FIRE_ONCE, Overlap.SKIP, Jitter.NONE);
        Instant now = at("2026-06-02T00:00Z");
        Position position = new Position(at("2026-06-01T00:00Z"), null, false);
        int plans = 0;
        long missed = 0;
        Plan plan;
        do {
            plan = TickPlanner.plan(schedule, position, now, ON_TIME);
            missed += plan.missed();
            position = new Position(plan.nextDue(), plan.buffered(), false);
            plans++;
        } while (plan.fire().isEmpty() && plans < 100);
        assertEquals(List.of(now), plan.fire(), "one order, for the latest tick");
        assertEquals(86_400, missed, "every other tick of the day counted missed");
        assertTrue(plans > 1 && plans <= 10, plans + " plans of at most " + TickPlanner.MOST_TICKS + " ticks each");
        assertEquals(now.plusSeconds(1), plan.nextDue());
    }

    @Test
    void aScheduleThatEndedHasNoNextTick() {
        Recurrence twice = new Recurrence(Cadence.cron("0 * * * *"), BERLIN, null, at("2026-06-01T11:00+02:00"), DaylightSaving.DEFAULT);
        Plan plan = TickPlanner.plan(new Schedule("s", twice, MissedTicks.FIRE_ONCE, Overlap.SKIP, Jitter.NONE),
                new Position(at("2026-06-01T11:00+02:00"), null, false), at("2026-06-01T11:00:01+02:00"), ON_TIME);
        assertEquals(List.of(at("2026-06-01T11:00+02:00")), plan.fire());
        assertNull(plan.nextDue(), "ended");
    }

    private static Schedule schedule(MissedTicks missed, Overlap overlap) {
        return new Schedule("s", HOURLY, missed, overlap, Jitter.NONE);
    }

    private static Plan plan(Schedule schedule, Instant nextDue, Instant now) {
        return TickPlanner.plan(schedule, new Position(nextDue, null, false), now, ON_TIME);
    }
}
