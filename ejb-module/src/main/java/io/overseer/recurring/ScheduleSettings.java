package io.overseer.recurring;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** How schedules fire, from MicroProfile Config. */
@ApplicationScoped
public class ScheduleSettings {

    /** A tick that fires later than this after its time is missed (the stack was down, the schedule paused). */
    @Inject
    @ConfigProperty(name = "overseer.schedules.on-time", defaultValue = "PT1M")
    Duration onTime;

    /** Schedules locked and fired per transaction; a poll goes on while batches come back full, up to ten. */
    @Inject
    @ConfigProperty(name = "overseer.schedules.batch", defaultValue = "50")
    int batch;

    public Duration onTime() {
        return onTime;
    }

    public int batch() {
        return batch;
    }
}
