package io.overseer.recurring;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * A bounded delay per tick, so that schedules sharing a minute do not all fire in its first second. The
 * delay is a function of the schedule and the tick, never drawn at random when firing: every instance, and
 * a retry after a crash, computes the same fire time for a tick, so no memory of it is needed.
 */
public record Jitter(Duration bound) {

    public static final Jitter NONE = new Jitter(Duration.ZERO);

    public Jitter {
        if (bound == null || bound.isNegative()) {
            throw new IllegalArgumentException("a jitter is zero or a positive duration, not " + bound);
        }
    }

    /** When {@code tick} of schedule {@code scheduleId} fires: within {@code [tick, tick + bound)}. */
    public Instant fireAt(String scheduleId, Instant tick) {
        long millis = bound.toMillis();
        if (millis == 0) {
            return tick;
        }
        UUID spread = UUID.nameUUIDFromBytes((scheduleId + '@' + tick).getBytes(StandardCharsets.UTF_8));
        return tick.plusMillis(Math.floorMod(spread.getLeastSignificantBits(), millis));
    }
}
