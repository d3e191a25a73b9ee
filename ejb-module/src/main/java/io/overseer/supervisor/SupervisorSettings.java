package io.overseer.supervisor;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Supervisor tuning, from MicroProfile Config. */
@ApplicationScoped
public class SupervisorSettings {

    /** How long the sweeping instance keeps the lease without renewing it; another takes over after. */
    @Inject
    @ConfigProperty(name = "overseer.supervisor.lease", defaultValue = "PT10S")
    Duration lease;

    @Inject
    @ConfigProperty(name = "overseer.supervisor.batch", defaultValue = "200")
    int batch;

    public Duration lease() {
        return lease;
    }

    public int batch() {
        return batch;
    }
}
