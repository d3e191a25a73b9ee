package io.overseer.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Bulk job tuning, from MicroProfile Config (docs/console.md, "Bulk actions"). */
@ApplicationScoped
public class BulkSettings {

    /** Actions per second of a job that does not set its own rate. */
    @Inject
    @ConfigProperty(name = "overseer.bulk.rate", defaultValue = "50")
    int rate;

    /**
     * At most this many of a job's orders unfinished at once: a job resubmitting 10,000 orders waits for
     * the ones it resubmitted to finish before it resubmits more, so new orders are never queued behind them.
     */
    @Inject
    @ConfigProperty(name = "overseer.bulk.in-flight", defaultValue = "100")
    int inFlight;

    /** How long the running instance keeps a job's lease without renewing it; another takes the job over after. */
    @Inject
    @ConfigProperty(name = "overseer.bulk.lease", defaultValue = "PT10S")
    Duration lease;

    public int rate() {
        return rate;
    }

    public int inFlight() {
        return inFlight;
    }

    public Duration lease() {
        return lease;
    }
}
