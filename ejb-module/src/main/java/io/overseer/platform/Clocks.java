package io.overseer.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** The injected time source: every "now" in the application comes from here, so tests can move it. */
@ApplicationScoped
public class Clocks {

    private final Clock clock = Clock.systemUTC();

    @Produces
    public Clock clock() {
        return clock;
    }

    public OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
