package io.overseer.recurring;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.util.List;
import java.util.Optional;

/**
 * A schedule's ticks: its {@link Cadence} in an IANA time zone, from its start (inclusive) to its end
 * (inclusive, optional), with its {@link DaylightSaving} policy. A tick is an instant; the order a tick
 * submits is keyed by the schedule and that instant, so a tick computed twice is still one order.
 *
 * <p>A fixed interval needs its start: its ticks are {@code start + k × interval}. A cron schedule without a
 * start ticks from whenever it is asked.
 */
public record Recurrence(Cadence cadence, ZoneId zone, Instant start, Instant end, DaylightSaving daylightSaving) {

    /**
     * Wall-clock time can run back by at most this much (the clocks going back): a tick after an instant may
     * have a wall-clock time up to this much before that instant's. No zone has gone back by more than two
     * hours since time zones were standardised; three leaves room.
     */
    private static final Duration LONGEST_SHIFT = Duration.ofHours(3);
    /** A cron expression that matches nothing for this many candidate times in a row (e.g. 30 February) is refused. */
    private static final int SCAN_LIMIT = 10_000;

    public Recurrence {
        if (cadence == null || zone == null || daylightSaving == null) {
            throw new IllegalArgumentException("a cadence, a time zone and a daylight-saving policy are required");
        }
        if (cadence instanceof Cadence.Every && start == null) {
            throw new IllegalArgumentException("an interval schedule needs its start: its ticks are start + k × interval");
        }
        if (start != null && end != null && end.isBefore(start)) {
            throw new IllegalArgumentException("the end " + end + " is before the start " + start);
        }
    }

    /** The zone named by its IANA id ({@code Europe/Berlin}); refused, naming it, when there is none. */
    public static ZoneId zone(String id) {
        try {
            return ZoneId.of(id);
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("not an IANA time zone: '" + id + "'", e);
        }
    }

    /** The first tick strictly after {@code after}; empty once the schedule has ended, or if its cron never matches. */
    public Optional<Instant> next(Instant after) {
        Instant from = start != null && after.isBefore(start) ? start.minusNanos(1) : after;
        Optional<Instant> next = cadence instanceof Cadence.Every every ? nextInterval(every.interval(), from)
                : nextCron((Cadence.Cron) cadence, from);
        return next.filter(tick -> end == null || !tick.isAfter(end));
    }

    /**
     * Up to {@code most} ticks after {@code after}, in order, none after {@code until} (null: no bound). A schedule
     * changed at some instant starts from {@code next} of that instant: ticks before it were the old rule's.
     */
    public List<Instant> ticks(Instant after, Instant until, int most) {
        List<Instant> ticks = new java.util.ArrayList<>();
        Optional<Instant> tick = next(after);
        while (tick.isPresent() && ticks.size() < most && (until == null || !tick.get().isAfter(until))) {
            ticks.add(tick.get());
            tick = next(tick.get());
        }
        return ticks;
    }

    private Optional<Instant> nextInterval(Duration interval, Instant after) {
        long elapsed = Duration.between(start, after).toNanos();
        long periods = elapsed < 0 ? 0 : elapsed / interval.toNanos() + 1;
        return Optional.of(start.plus(interval.multipliedBy(periods)));
    }

    /**
     * The earliest instant after {@code after} that a matching wall-clock time stands for. Without a clock
     * change near, that is the first match after {@code after}'s wall-clock time. Near one, instants do not
     * follow wall-clock order (a repeated hour's second pass, a skipped time shifted past later ones), so the
     * matches from {@link #LONGEST_SHIFT} before to {@link #LONGEST_SHIFT} after the best so far are compared.
     */
    private Optional<Instant> nextCron(Cadence.Cron cron, Instant after) {
        Optional<Instant> first = firstMatch(cron, LocalDateTime.ofInstant(after, zone), after);
        ZoneOffsetTransition change = zone.getRules().nextTransition(after.minus(LONGEST_SHIFT));
        if (first.isEmpty() || change == null || change.getInstant().isAfter(first.get().plus(LONGEST_SHIFT))) {
            return first;
        }
        return earliestNear(cron, LocalDateTime.ofInstant(after.minus(LONGEST_SHIFT), zone), after);
    }

    private Optional<Instant> firstMatch(Cadence.Cron cron, LocalDateTime wall, Instant after) {
        LocalDateTime cursor = wall;
        for (int i = 0; i < SCAN_LIMIT; i++) {
            Optional<LocalDateTime> match = cron.nextAfter(cursor);
            if (match.isEmpty()) {
                return Optional.empty();
            }
            for (Instant tick : daylightSaving.instants(match.get(), zone)) {
                if (tick.isAfter(after)) {
                    return Optional.of(tick);
                }
            }
            cursor = match.get();
        }
        return Optional.empty();
    }

    private Optional<Instant> earliestNear(Cadence.Cron cron, LocalDateTime from, Instant after) {
        Instant best = null;
        LocalDateTime bestWall = null;
        LocalDateTime cursor = from;
        for (int i = 0; i < SCAN_LIMIT; i++) {
            Optional<LocalDateTime> match = cron.nextAfter(cursor);
            if (match.isEmpty() || (bestWall != null && match.get().isAfter(bestWall.plus(LONGEST_SHIFT)))) {
                break;
            }
            List<Instant> ticks = daylightSaving.instants(match.get(), zone);
            for (Instant tick : ticks) {
                if (tick.isAfter(after) && (best == null || tick.isBefore(best))) {
                    best = tick;
                    bestWall = match.get();
                }
            }
            cursor = match.get();
        }
        return Optional.ofNullable(best);
    }
}
