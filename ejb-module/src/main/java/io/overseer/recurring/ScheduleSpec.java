package io.overseer.recurring;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * A schedule as a client writes it (the API's body; later, a workflow file's declaration): words and
 * ISO-8601 texts, read into {@link ScheduleRules} here, once, with an error that names the field for every
 * mistake. Exactly one of {@code cron} and {@code every}; {@code zone} an IANA id (default UTC);
 * {@code missedTicks} fire-once (default), skip or catch-up (then both {@code catchUpWindow} and
 * {@code catchUpMax}); {@code overlap} skip (default), buffer-one or allow; {@code repeatedTime} once
 * (default) or twice; {@code skippedTime} shift (default) or skip; {@code jitter} an ISO duration (default
 * none); {@code start} and {@code end} ISO offset date-times (an interval without a start starts at its
 * creation).
 */
public record ScheduleSpec(String id, String cron, String every, String zone, String start, String end,
                           String missedTicks, String catchUpWindow, Integer catchUpMax, String overlap,
                           String repeatedTime, String skippedTime, String jitter) {

    /** The longest jitter: a tick later than this is not spread, it is late. */
    public static final Duration LONGEST_JITTER = Duration.ofHours(1);

    /** The rules, or an {@link IllegalArgumentException} naming the field and what is wrong with it. */
    public ScheduleRules rules(Instant createdAt) {
        if ((cron == null) == (every == null)) {
            throw new IllegalArgumentException("cron, every: exactly one of them is required");
        }
        Cadence cadence = cron != null ? field("cron", () -> Cadence.cron(cron))
                : field("every", () -> Cadence.every(duration("every", every)));
        ZoneId timeZone = field("zone", () -> Recurrence.zone(zone == null ? "UTC" : zone));
        Instant from = instant("start", start);
        Instant to = instant("end", end);
        // An interval without a start counts from the creation's whole second: ticks a reader can tell apart.
        Recurrence recurrence = field("end", () -> new Recurrence(cadence, timeZone,
                from == null && cadence instanceof Cadence.Every ? createdAt.truncatedTo(ChronoUnit.SECONDS) : from, to,
                new DaylightSaving(choice("repeatedTime", repeatedTime, DaylightSaving.Repeated.ONCE),
                        choice("skippedTime", skippedTime, DaylightSaving.Missing.SHIFT))));
        MissedTicks.Kind kind = choice("missedTicks", missedTicks, MissedTicks.Kind.FIRE_ONCE);
        MissedTicks missed = field("catchUpWindow", () -> kind == MissedTicks.Kind.CATCH_UP
                ? MissedTicks.catchUp(catchUpWindow == null ? null : duration("catchUpWindow", catchUpWindow),
                        catchUpMax == null ? 0 : catchUpMax)
                : new MissedTicks(kind, null, 0));
        Duration spread = jitter == null ? Duration.ZERO : duration("jitter", jitter);
        if (spread.compareTo(LONGEST_JITTER) > 0) {
            throw new IllegalArgumentException("jitter: at most " + LONGEST_JITTER + ", not " + jitter);
        }
        ScheduleRules rules = field("id", () -> new ScheduleRules(new TickPlanner.Schedule(id, recurrence, missed,
                choice("overlap", overlap, Overlap.SKIP), new Jitter(spread))));
        if (recurrence.next(createdAt).isEmpty()) {
            throw new IllegalArgumentException(to != null ? "end: no tick falls between now and " + end
                    : "cron: '" + cron + "' never matches a date (such as 30 February)");
        }
        return rules;
    }

    /** A policy's word: its enum constant's name in lower case, with hyphens (fire-once, buffer-one). */
    static String word(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static <E extends Enum<E>> E choice(String field, String word, E otherwise) {
        if (word == null) {
            return otherwise;
        }
        for (E value : otherwise.getDeclaringClass().getEnumConstants()) {
            if (word(value).equals(word)) {
                return value;
            }
        }
        StringBuilder words = new StringBuilder();
        for (E value : otherwise.getDeclaringClass().getEnumConstants()) {
            words.append(words.length() == 0 ? "" : ", ").append(word(value));
        }
        throw new IllegalArgumentException(field + ": one of " + words + ", not '" + word + "'");
    }

    private static Duration duration(String field, String text) {
        try {
            return Duration.parse(text);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(field + ": an ISO-8601 duration such as PT15M, not '" + text + "'", e);
        }
    }

    /**
     * A client's date-time with its offset, for {@code field}: to the microsecond, as PostgreSQL keeps it, so a
     * tick computed before the row is stored is the one read back; refused naming the field.
     */
    public static Instant instant(String field, String text) {
        try {
            return text == null ? null : OffsetDateTime.parse(text).toInstant().truncatedTo(ChronoUnit.MICROS);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(field + ": an ISO-8601 date-time with its offset such as"
                    + " 2026-12-01T02:00:00+01:00, not '" + text + "'", e);
        }
    }

    /** Runs a check whose message does not yet name its field, and names it. */
    private static <T> T field(String field, java.util.function.Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            throw new IllegalArgumentException(message != null && message.matches("^[a-zA-Z]+: .*") ? message
                    : field + ": " + message, e);
        }
    }
}
