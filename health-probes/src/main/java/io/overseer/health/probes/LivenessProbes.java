package io.overseer.health.probes;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * The liveness checks the server's MicroProfile Health calls, answered by the registered checks of their
 * names. Until the web module registers them each is UP: a start is not a failure a restart would cure,
 * and a liveness probe that failed during a slow start would kill the instance before it could serve
 * (readiness keeps traffic away meanwhile).
 */
public final class LivenessProbes {

    private LivenessProbes() {
        // holder of the probes; each probe is its own bean
    }

    static HealthCheckResponse starting(String name) {
        return HealthCheckResponse.named(name).up().withData("state", "starting").build();
    }

    @Liveness
    @ApplicationScoped
    public static class Workers implements HealthCheck {
        @Inject
        HealthChecks checks;

        @Override
        public HealthCheckResponse call() {
            return checks.call(HealthChecks.WORKERS, starting(HealthChecks.WORKERS));
        }
    }

    @Liveness
    @ApplicationScoped
    public static class DatabasePool implements HealthCheck {
        @Inject
        HealthChecks checks;

        @Override
        public HealthCheckResponse call() {
            return checks.call(HealthChecks.DATABASE_POOL, starting(HealthChecks.DATABASE_POOL));
        }
    }
}
