package io.overseer.submission;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * A submission's {@code notBefore}: the instant before which no scheduler claims the order's first step.
 * Read on the database clock, as every deadline is. An instant already past starts the order at once (a
 * clock that runs a little ahead of the database's must not refuse it); one further ahead than
 * {@link #MAX_DELAY} is refused, as a typo (a year for a month) is far likelier than such a plan, and a
 * scheduler is not a calendar.
 */
public final class DelayedStart {

    public static final Duration MAX_DELAY = Duration.ofDays(366);

    private DelayedStart() {
    }

    /**
     * The instant to wait for, in UTC, or empty if the order may start now.
     *
     * @throws InvalidOrderException the value is not an ISO-8601 date-time with an offset, or too far ahead
     */
    public static Optional<OffsetDateTime> of(String notBefore, OffsetDateTime now) throws InvalidOrderException {
        if (notBefore == null) {
            return Optional.empty();
        }
        OffsetDateTime at;
        try {
            at = OffsetDateTime.parse(notBefore).withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new InvalidOrderException("notBefore must be an ISO-8601 date-time with an offset,"
                    + " such as 2026-12-01T08:00:00Z; was \"" + notBefore + "\"");
        }
        if (at.isAfter(now.plus(MAX_DELAY))) {
            throw new InvalidOrderException("notBefore is more than " + MAX_DELAY.toDays() + " days ahead: " + notBefore);
        }
        return at.isAfter(now) ? Optional.of(at) : Optional.empty();
    }
}
