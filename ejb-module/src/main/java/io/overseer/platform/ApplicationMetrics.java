package io.overseer.platform;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/**
 * The application's one meter registry, served in the Prometheus text format at {@code GET /api/metrics}.
 *
 * <p>Micrometer is bundled with the application rather than taken from the server: Payara offers
 * MicroProfile Metrics and no Micrometer, WildFly 39 offers Micrometer (exported by OTLP or on its
 * management port) and no MicroProfile Metrics. Owning the registry gives every runtime the same names,
 * the same path and the same scrape (docs/operations.md, "Metrics"). The server's own metrics stay where each
 * server publishes them.
 */
@ApplicationScoped
public class ApplicationMetrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private JvmGcMetrics gc;

    @PostConstruct
    void bindJvm() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gc = new JvmGcMetrics();
        gc.bindTo(registry);
    }

    @PreDestroy
    void close() {
        if (gc != null) {
            gc.close(); // removes its GC notification listeners, which would pin this class loader
        }
        registry.close();
    }

    /**
     * Dependent, not application-scoped: a MeterRegistry has final methods, so CDI cannot proxy it
     * (WELD-001410); every injection gets this bean's one registry anyway.
     */
    @Produces
    MeterRegistry registry() {
        return registry;
    }

    /** The Prometheus text format (version 0.0.4) of every meter. */
    public String scrape() {
        return registry.scrape();
    }
}
