package io.overseer.supervisor;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Supervisor tuning, from MicroProfile Config. */
@ApplicationScoped
public class SupervisorSettings {

    /** How many times an expired order is put back to Pending before it goes to Error. */
    @Inject
    @ConfigProperty(name = "overseer.supervisor.max-retries", defaultValue = "3")
    int maxRetries;

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

    @Produces
    RecoveryPolicy recoveryPolicy() {
        return RecoveryPolicy.retryThenGiveUp(maxRetries);
    }

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
