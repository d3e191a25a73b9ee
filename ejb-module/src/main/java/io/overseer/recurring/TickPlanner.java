package io.overseer.recurring;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of a schedule's ticks submit an order now: the ticks whose fire time ({@link Jitter}) has come since
 * the schedule's next due tick, judged by its {@link MissedTicks} policy, then by its {@link Overlap} policy
 * against its previous tick's order. Pure: the schedule's row holds the position between plans (the next due
 * tick, a buffered tick, whether the previous order is unfinished), and the caller stores the plan's new
 * position in the transaction that submits the plan's orders, each keyed by the schedule and its tick.
 */
public final class TickPlanner {

    /**
     * Ticks looked at per plan at most. A schedule far behind (every second, down for a day) is walked in
     * steps of this many, each counted missed and firing nothing, until a plan reaches now and applies the
     * policies to the ticks it sees — which hold the latest tick and, for a catch-up, the window's.
     */
    static final int MOST_TICKS = 10_000;

    /** A schedule's rules, as a plan needs them. */
    public record Schedule(String id, Recurrence recurrence, MissedTicks missed, Overlap overlap, Jitter jitter) {
    }

    /** Where a schedule stands between plans: its next due tick (null: it has ended), a buffered tick, if any. */
    public record Position(Instant nextDue, Instant buffered, boolean previousUnfinished) {
    }

    /**
     * The ticks to submit now, in order; the tick kept for later (BUFFER_ONE); how many due ticks were
     * passed over as missed and as overlapping; and the next due tick (null once the schedule has ended).
     */
    public record Plan(List<Instant> fire, Instant buffered, int missed, int overlapped, Instant nextDue) {
    }

    private TickPlanner() {
    }

    /**
     * The plan at {@code now}. A due tick is on time when it fires within {@code onTime} of its fire time;
     * the ticks before the latest, and the latest if it is late, are missed.
     */
    public static Plan plan(Schedule schedule, Position position, Instant now, Duration onTime) {
        List<Instant> due = new ArrayList<>();
        Instant cursor = position.nextDue();
        while (cursor != null && !fireAt(schedule, cursor).isAfter(now)) {
            if (due.size() == MOST_TICKS) {
                return new Plan(List.of(), position.buffered(), MOST_TICKS, 0, cursor);
            }
            due.add(cursor);
            cursor = schedule.recurrence().next(cursor).orElse(null);
        }
        List<Instant> chosen = chosen(schedule, due, now, onTime);
        return overlap(schedule.overlap(), position, chosen, due.size() - chosen.size(), cursor);
    }

    private static List<Instant> chosen(Schedule schedule, List<Instant> due, Instant now, Duration onTime) {
        if (due.isEmpty()) {
            return List.of();
        }
        Instant latest = due.get(due.size() - 1);
        boolean latestOnTime = !fireAt(schedule, latest).plus(onTime).isBefore(now);
        List<Instant> missed = latestOnTime ? due.subList(0, due.size() - 1) : due;
        List<Instant> chosen = new ArrayList<>();
        switch (schedule.missed().kind()) {
            case FIRE_ONCE -> chosen.add(latest);
            case SKIP -> {
                if (latestOnTime) {
                    chosen.add(latest);
                }
            }
            case CATCH_UP -> {
                Instant since = now.minus(schedule.missed().window());
                List<Instant> recent = missed.stream().filter(tick -> !tick.isBefore(since)).toList();
                chosen.addAll(recent.subList(Math.max(0, recent.size() - schedule.missed().max()), recent.size()));
                if (latestOnTime) {
                    chosen.add(latest);
                }
            }
        }
        return chosen;
    }

    private static Plan overlap(Overlap overlap, Position position, List<Instant> chosen, int missed, Instant nextDue) {
        List<Instant> candidates = new ArrayList<>();
        if (position.buffered() != null) {
            candidates.add(position.buffered()); // older than any tick due now
        }
        candidates.addAll(chosen);
        if (overlap == Overlap.ALLOW || candidates.isEmpty()) {
            return new Plan(candidates, null, missed, 0, nextDue);
        }
        boolean busy = position.previousUnfinished();
        List<Instant> fire = busy ? List.of() : candidates.subList(0, 1);
        Instant buffered = null;
        if (overlap == Overlap.BUFFER_ONE) {
            int next = fire.size();
            buffered = candidates.size() > next ? candidates.get(next) : null;
        }
        int overlapped = candidates.size() - fire.size() - (buffered == null ? 0 : 1);
        return new Plan(List.copyOf(fire), buffered, missed, overlapped, nextDue);
    }

    private static Instant fireAt(Schedule schedule, Instant tick) {
        return schedule.jitter().fireAt(schedule.id(), tick);
    }
}
