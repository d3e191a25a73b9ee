package io.overseer.recurring;

import java.time.Duration;

/**
 * What happens to ticks that came due while nothing could fire them (the stack was down, the schedule
 * paused): {@link Kind#FIRE_ONCE} submits one order for them all, keyed by the latest (default);
 * {@link Kind#SKIP} submits none; {@link Kind#CATCH_UP} submits one per missed tick, but only for ticks
 * within {@code window} before now and at most {@code max} of them (the latest), so that a month of downtime
 * never becomes a month of orders at once. A tick is missed when it fires later than the on-time tolerance
 * the {@link TickPlanner} is given; the latest tick, if on time, fires under every policy.
 */
public record MissedTicks(Kind kind, Duration window, int max) {

    public enum Kind { FIRE_ONCE, SKIP, CATCH_UP }

    public static final MissedTicks FIRE_ONCE = new MissedTicks(Kind.FIRE_ONCE, null, 0);
    public static final MissedTicks SKIP = new MissedTicks(Kind.SKIP, null, 0);

    /** The catch-up at most this long back and this many ticks; both bounds are required. */
    public static MissedTicks catchUp(Duration window, int max) {
        return new MissedTicks(Kind.CATCH_UP, window, max);
    }

    public MissedTicks {
        if (kind == null) {
            throw new IllegalArgumentException("a missed-tick policy is required");
        }
        if (kind == Kind.CATCH_UP && (window == null || window.isNegative() || window.isZero() || max < 1)) {
            throw new IllegalArgumentException("a catch-up needs both bounds: a positive window (how far back) and a"
                    + " count of at least 1 (how many ticks); got window " + window + ", count " + max);
        }
    }
}
