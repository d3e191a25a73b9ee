package io.overseer.recurring;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * What a cron schedule's wall-clock time means when the clocks change, stated rather than left to a library:
 * a local time that occurs twice (the clocks go back) runs {@link Repeated#ONCE once}, at its first occurrence
 * (default), or {@link Repeated#TWICE twice}; a local time that does not occur (the clocks go forward) runs
 * {@link Missing#SHIFT shifted} by the gap's length (default: 02:30 becomes 03:30 when 02:00 jumps to 03:00),
 * or is {@link Missing#SKIP skipped}. Fixed intervals run in absolute time and are not affected.
 */
public record DaylightSaving(Repeated repeated, Missing missing) {

    public static final DaylightSaving DEFAULT = new DaylightSaving(Repeated.ONCE, Missing.SHIFT);

    public enum Repeated { ONCE, TWICE }

    public enum Missing { SHIFT, SKIP }

    public DaylightSaving {
        if (repeated == null || missing == null) {
            throw new IllegalArgumentException("both daylight-saving policies are required");
        }
    }

    /** The instants a matched wall-clock time stands for in {@code zone}: none, one or two, earliest first. */
    List<Instant> instants(LocalDateTime wall, ZoneId zone) {
        List<ZoneOffset> offsets = zone.getRules().getValidOffsets(wall);
        if (offsets.size() == 1) {
            return List.of(wall.toInstant(offsets.get(0)));
        }
        if (offsets.isEmpty()) { // in a gap: java.time moves such a time later by the gap's length
            return missing == Missing.SKIP ? List.of() : List.of(ZonedDateTime.ofLocal(wall, zone, null).toInstant());
        }
        Instant one = wall.toInstant(offsets.get(0));
        Instant other = wall.toInstant(offsets.get(1));
        Instant earlier = one.isBefore(other) ? one : other;
        Instant later = one.isBefore(other) ? other : one;
        return repeated == Repeated.ONCE ? List.of(earlier) : List.of(earlier, later);
    }
}
