package io.overseer.health.probes;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The readiness checks the server's MicroProfile Health calls. Each answers with the registered check of
 * its name; until the web module has registered them (it does so when it starts), each is DOWN: an
 * instance whose API is not up yet is not ready, whatever PostgreSQL and the broker say.
 */
public final class ReadinessProbes {

    private ReadinessProbes() {
        // holder of the probes; each probe is its own bean
    }

    static HealthCheckResponse notYet(String name) {
        return HealthCheckResponse.named(name).down().withData("state", "starting").build();
    }

    @Readiness
    @ApplicationScoped
    public static class Application implements HealthCheck {
        @Inject
        HealthChecks checks;

        @Override
        public HealthCheckResponse call() {
            return checks.call(HealthChecks.APPLICATION, notYet(HealthChecks.APPLICATION));
        }
    }

    @Readiness
    @ApplicationScoped
    public static class Database implements HealthCheck {
        @Inject
        HealthChecks checks;

        @Override
        public HealthCheckResponse call() {
            return checks.call(HealthChecks.DATABASE, notYet(HealthChecks.DATABASE));
        }
    }

    @Readiness
    @ApplicationScoped
    public static class Broker implements HealthCheck {
        @Inject
        HealthChecks checks;

        @Override
        public HealthCheckResponse call() {
            return checks.call(HealthChecks.BROKER, notYet(HealthChecks.BROKER));
        }
    }
}
