package io.overseer.platform;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Comparator;

/**
 * The database's time, read locally: this JVM's clock shifted by the last measured difference to
 * PostgreSQL's clock. Every instance then agrees on when a complete-by or a lease has passed, whatever
 * each machine's clock says, without a round trip per reading.
 */
public final class DatabaseClock extends Clock {

    private final Clock local;
    private volatile Duration offset = Duration.ZERO;

    public DatabaseClock(Clock local) {
        this.local = local;
    }

    /**
     * Records one measurement: the database said {@code databaseTime} while this JVM read {@code sentAt}
     * before asking and {@code receivedAt} after the answer. The database's reading is taken to be the
     * midpoint of the round trip; the error is at most half of it.
     */
    public Duration adjust(Instant sentAt, Instant databaseTime, Instant receivedAt) {
        Instant midpoint = sentAt.plus(Duration.between(sentAt, receivedAt).dividedBy(2));
        offset = Duration.between(midpoint, databaseTime);
        return offset;
    }

    /** One reading of the database's clock: asked at {@code sentAt}, answered {@code databaseTime}, back at {@code receivedAt}. */
    public record Reading(Instant sentAt, Instant databaseTime, Instant receivedAt) {
        public Duration roundTrip() {
            return Duration.between(sentAt, receivedAt);
        }
    }

    /**
     * Records the tightest of several readings, the one with the shortest round trip: its midpoint is the
     * surest, as a slow answer (a thread descheduled, cold code at start) can lie anywhere in a long one.
     */
    public Duration adjust(Collection<Reading> readings) {
        Reading tightest = readings.stream().min(Comparator.comparing(Reading::roundTrip))
                .orElseThrow(() -> new IllegalArgumentException("no reading of the database clock"));
        return adjust(tightest.sentAt(), tightest.databaseTime(), tightest.receivedAt());
    }

    public Duration offset() {
        return offset;
    }

    @Override
    public Instant instant() {
        return local.instant().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the database clock is UTC only");
    }
}
