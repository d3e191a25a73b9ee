package io.overseer.scheduler;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Scheduler tuning, from MicroProfile Config (system properties, environment, microprofile-config.properties). */
@ApplicationScoped
public class SchedulerSettings {

    /** A Pending record untouched this long has lost its dispatch message; the poller claims it. */
    @Inject
    @ConfigProperty(name = "overseer.scheduler.stranded-after", defaultValue = "PT10S")
    Duration strandedAfter;

    @Inject
    @ConfigProperty(name = "overseer.scheduler.poll-batch", defaultValue = "100")
    int pollBatch;

    public Duration strandedAfter() {
        return strandedAfter;
    }

    public int pollBatch() {
        return pollBatch;
    }
}
