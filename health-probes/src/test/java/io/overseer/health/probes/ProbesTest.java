package io.overseer.health.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

class ProbesTest {

    private final HealthChecks checks = new HealthChecks();

    @Test
    void aReadinessProbeIsDownUntilItsCheckIsRegisteredThenAnswersWithIt() {
        ReadinessProbes.Database probe = new ReadinessProbes.Database();
        probe.checks = checks;
        assertEquals(HealthCheckResponse.Status.DOWN, probe.call().getStatus());
        assertEquals(HealthChecks.DATABASE, probe.call().getName());

        checks.register(HealthChecks.DATABASE, () -> HealthCheckResponse.up(HealthChecks.DATABASE));
        assertEquals(HealthCheckResponse.Status.UP, probe.call().getStatus());
        checks.register(HealthChecks.DATABASE, () -> HealthCheckResponse.down(HealthChecks.DATABASE));
        assertEquals(HealthCheckResponse.Status.DOWN, probe.call().getStatus(), "the later registration answers");
    }

    @Test
    void aLivenessProbeIsUpWhileStartingThenAnswersWithItsCheck() {
        LivenessProbes.Workers probe = new LivenessProbes.Workers();
        probe.checks = checks;
        assertEquals(HealthCheckResponse.Status.UP, probe.call().getStatus());
        assertEquals("starting", probe.call().getData().orElseThrow().get("state"));

        checks.register(HealthChecks.WORKERS, () -> HealthCheckResponse.down(HealthChecks.WORKERS));
        assertEquals(HealthCheckResponse.Status.DOWN, probe.call().getStatus());
    }

    @Test
    void eachProbeAsksForItsOwnName() {
        checks.register(HealthChecks.BROKER, () -> HealthCheckResponse.down(HealthChecks.BROKER));
        ReadinessProbes.Application application = new ReadinessProbes.Application();
        application.checks = checks;
        assertEquals(HealthChecks.APPLICATION, application.call().getName());
        assertEquals(HealthCheckResponse.Status.DOWN, application.call().getStatus());
        ReadinessProbes.Broker broker = new ReadinessProbes.Broker();
        broker.checks = checks;
        assertEquals(HealthChecks.BROKER, broker.call().getName());
    }
}
