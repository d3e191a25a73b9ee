package io.overseer.platform;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The injected time source: every "now" in the application comes from here. It is the database's
 * clock (see {@link DatabaseClock}, kept in step by {@link DatabaseClockSync}), so deadlines and leases
 * written by one instance are judged the same way by every other.
 */
@ApplicationScoped
public class Clocks {

    private final DatabaseClock clock = new DatabaseClock(Clock.systemUTC());

    public DatabaseClock databaseClock() {
        return clock;
    }

    public OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
