package io.overseer.api;

import io.overseer.platform.ApplicationMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The application's metrics in the Prometheus text format, the same on every runtime. Who may read them
 * is declared in web.xml (viewer, operator); a Prometheus scrape job sends their Basic credentials.
 */
@Path("metrics")
@ApplicationScoped
@Tag(name = "metrics")
public class MetricsResource {

    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    @Inject
    ApplicationMetrics metrics;

    @GET
    @Produces(PROMETHEUS_TEXT)
    @Operation(summary = "The application's metrics (agent calls, retries, failures, latencies, circuits; JVM)")
    public String scrape() {
        return metrics.scrape();
    }
}
