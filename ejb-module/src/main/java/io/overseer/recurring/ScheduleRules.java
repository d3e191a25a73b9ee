package io.overseer.recurring;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** A schedule's rules as its row stores them: the one mapping between the columns and the planner's terms. */
public record ScheduleRules(TickPlanner.Schedule schedule) {

    /** What a schedule's id looks like: it names the schedule in URLs and in its orders' attributes. */
    public static final String ID = "[a-z0-9][a-z0-9-]{0,63}";

    public ScheduleRules {
        if (schedule.id() == null || !schedule.id().matches(ID)) {
            throw new IllegalArgumentException("a schedule's id must match " + ID + ", not '" + schedule.id() + "'");
        }
    }

    public String id() {
        return schedule.id();
    }

    static ScheduleRules readFrom(ScheduleRecord row) {
        Cadence cadence = row.cron() != null ? Cadence.cron(row.cron()) : Cadence.every(Duration.ofMillis(row.everyMs()));
        Recurrence recurrence = new Recurrence(cadence, Recurrence.zone(row.zone()), instant(row.startsAt()), instant(row.endsAt()),
                new DaylightSaving(DaylightSaving.Repeated.valueOf(row.dstRepeated()), DaylightSaving.Missing.valueOf(row.dstMissing())));
        MissedTicks.Kind kind = MissedTicks.Kind.valueOf(row.missed());
        MissedTicks missed = kind == MissedTicks.Kind.CATCH_UP
                ? MissedTicks.catchUp(Duration.ofMillis(row.catchUpWindowMs()), row.catchUpMax())
                : new MissedTicks(kind, null, 0);
        return new ScheduleRules(new TickPlanner.Schedule(row.scheduleId(), recurrence, missed,
                Overlap.valueOf(row.overlap()), new Jitter(Duration.ofMillis(row.jitterMs()))));
    }

    void writeTo(ScheduleRecord row) {
        Recurrence recurrence = schedule.recurrence();
        MissedTicks missed = schedule.missed();
        row.rules(recurrence.cadence() instanceof Cadence.Cron cron ? cron.expression() : null,
                recurrence.cadence() instanceof Cadence.Every every ? every.interval().toMillis() : null,
                recurrence.zone().getId(), at(recurrence.start()), at(recurrence.end()), missed.kind().name(),
                missed.window() == null ? null : missed.window().toMillis(),
                missed.kind() == MissedTicks.Kind.CATCH_UP ? missed.max() : null, schedule.overlap().name(),
                recurrence.daylightSaving().repeated().name(), recurrence.daylightSaving().missing().name(),
                schedule.jitter().bound().toMillis());
    }

    private static OffsetDateTime at(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }
}
