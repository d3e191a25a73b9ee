package io.overseer.health;

import io.overseer.health.probes.HealthChecks;
import io.overseer.platform.Database;
import io.overseer.platform.Progress;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * Live unless this instance is stuck in a way only a restart cures: one of its own workers silent past
 * its allowance and {@code overseer.health.stuck-after}, or its JDBC pool lending no connection for as
 * long. A database or broker that is down is not such a case (readiness reports it, and a restart would
 * not bring it back): a refused connection is an answer, and a send waiting on the broker is not the
 * worker's silence. See docs/health.md for what each check watches.
 */
public final class Liveness {

    static final String STUCK_AFTER = "overseer.health.stuck-after";
    private static final Duration DEFAULT_STUCK_AFTER = Duration.ofMinutes(2);

    private Liveness() {
        // holder of the checks; each check is its own bean
    }

    /**
     * Read with the application's class loader, not injected: Payara creates and calls the checks on its
     * health endpoint's thread, and for an application not deployed at "/" that thread's context class
     * loader is the server's — an injected {@code @ConfigProperty} then saw the server's configuration
     * and never the application's (seen in LivenessIT: the WAR's 2 s bound was read as the default).
     */
    static Duration stuckAfter() {
        return ConfigProvider.getConfig(Liveness.class.getClassLoader()).getOptionalValue(STUCK_AFTER, Duration.class)
                .orElse(DEFAULT_STUCK_AFTER);
    }

    @ApplicationScoped
    public static class WorkersCheck implements HealthCheck {
        @Inject
        Progress progress;

        @Override
        public HealthCheckResponse call() {
            List<Progress.Stuck> stuck = progress.stuck(stuckAfter());
            HealthCheckResponseBuilder response = HealthCheckResponse.named(HealthChecks.WORKERS).status(stuck.isEmpty())
                    .withData("watched", progress.watched());
            // The longest silent first; a handful is enough to find them in a thread dump.
            stuck.stream().limit(5).forEach(s -> response.withData(s.worker(), "silent " + s.silentFor().toSeconds() + " s"));
            return response.build();
        }
    }

    @ApplicationScoped
    public static class DatabasePoolCheck implements HealthCheck {
        @Resource(name = Database.DATA_SOURCE)
        DataSource dataSource;
        @Inject
        Progress progress;
        private final BoundedProbe probe = new BoundedProbe(HealthChecks.DATABASE_POOL);
        private final Unanswered unanswered = new Unanswered();

        @PreDestroy
        void close() {
            probe.close();
        }

        /**
         * Borrows a connection and gives it back, without a query: a pool that lends none within the
         * probe's bound is exhausted (connections leaked, or held by stuck threads). A database that
         * refuses connections answers at once, with an error, and does not count.
         */
        @Override
        public HealthCheckResponse call() {
            long startedAt = progress.now();
            BoundedProbe.Answer answer = probe.attempt(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    return null;
                }
            });
            unanswered.record(startedAt, answer.inTime());
            Duration late = unanswered.duration(progress.now());
            HealthCheckResponseBuilder response = HealthCheckResponse.named(HealthChecks.DATABASE_POOL)
                    .status(late.compareTo(stuckAfter()) <= 0);
            if (!late.isZero()) {
                response.withData("no connection lent for", late.toSeconds() + " s")
                        .withData("last attempt", answer.error() == null ? "late" : answer.error());
            }
            return response.build();
        }
    }
}
