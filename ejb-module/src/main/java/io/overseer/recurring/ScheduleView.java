package io.overseer.recurring;

import java.time.Instant;
import java.util.List;

/**
 * A schedule as the API and the console show it: its rules in the words {@link ScheduleSpec} reads, where
 * it stands (the next tick, the last one fired and its order, the counts of ticks fired, missed and skipped
 * for overlapping), whether it is paused and why, and its next ticks (a preview).
 */
public record ScheduleView(String id, String workflow, String cron, String every, String zone, Instant start,
                           Instant end, String missedTicks, String catchUpWindow, Integer catchUpMax, String overlap,
                           String repeatedTime, String skippedTime, String jitter, Instant nextDue, Instant lastTick,
                           String lastOrderId, long fired, long missed, long overlapped, String pausedReason,
                           Integer pauseAfterFailures, int failuresInRow, List<Instant> nextTicks) {

    /** The view of {@code row}, with its next {@code preview} ticks after {@code now}. */
    public static ScheduleView of(ScheduleRecord row, Instant now, int preview) {
        TickPlanner.Schedule schedule = row.rules().schedule();
        Recurrence recurrence = schedule.recurrence();
        MissedTicks missed = schedule.missed();
        Instant after = row.nextDue() != null && row.nextDue().isAfter(now) ? row.nextDue().minusNanos(1) : now;
        List<Instant> next = recurrence.ticks(after, null, preview);
        return new ScheduleView(row.scheduleId(), row.workflow(),
                recurrence.cadence() instanceof Cadence.Cron cron ? cron.expression() : null,
                recurrence.cadence() instanceof Cadence.Every every ? every.interval().toString() : null,
                recurrence.zone().getId(), recurrence.start(), recurrence.end(), ScheduleSpec.word(missed.kind()),
                missed.window() == null ? null : missed.window().toString(),
                missed.kind() == MissedTicks.Kind.CATCH_UP ? missed.max() : null, ScheduleSpec.word(schedule.overlap()),
                ScheduleSpec.word(recurrence.daylightSaving().repeated()), ScheduleSpec.word(recurrence.daylightSaving().missing()),
                schedule.jitter().bound().isZero() ? null : schedule.jitter().bound().toString(), row.nextDue(), row.lastTick(),
                row.lastOrderId(), row.firedCount(), row.missedCount(), row.overlappedCount(), row.pausedReason(),
                row.pauseAfterFailures(), row.failuresInRow(), List.copyOf(next));
    }
}
