package io.overseer.supervisor;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Supervisor tuning, from MicroProfile Config. */
@ApplicationScoped
public class SupervisorSettings {

    /** The complete-by a reset Pending record gets: it must be claimed and finished within this. */
    @Inject
    @ConfigProperty(name = "overseer.supervisor.retry-complete-by", defaultValue = "PT60S")
    Duration retryCompleteBy;

    /** How long the sweeping instance keeps the lease without renewing it; another takes over after. */
    @Inject
    @ConfigProperty(name = "overseer.supervisor.lease", defaultValue = "PT10S")
    Duration lease;

    @Inject
    @ConfigProperty(name = "overseer.supervisor.batch", defaultValue = "200")
    int batch;

    public Duration retryCompleteBy() {
        return retryCompleteBy;
    }

    public Duration lease() {
        return lease;
    }

    public int batch() {
        return batch;
    }
}
