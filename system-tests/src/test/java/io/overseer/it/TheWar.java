package io.overseer.it;

import io.overseer.it.local.LocalOrdersProbe;
import io.overseer.it.plugin.ApprovedCharge;
import io.overseer.it.plugin.FraudScreening;
import io.overseer.it.plugin.OrderVetting;
import io.overseer.it.plugin.StockAudit;
import io.overseer.it.plugin.StuckScreening;
import io.overseer.support.Deployments;
import io.overseer.support.TestStack;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The one deployment every Arquillian class tests, so that Payara Micro starts once for the whole tier
 * ({@link io.overseer.support.SharedPayaraMicro}): the WAR as users deploy it, plus what some classes need,
 * each scoped so that the other classes never meet it —
 * <ul>
 * <li>the coded agents of {@code it/plugin}, each claiming operations only its own class's workflow uses
 * (AgentSpiIT: screen-order, vet-order; EventIT: charge-approved; HeartbeatIT: audit-stock; LivenessIT:
 * stuck-screen);</li>
 * <li>{@code it/local/LocalOrdersProbe}, a team's own code calling the in-process API in a transaction of
 * its own, at {@code /it/local-orders} (BatchSubmissionIT): nothing else calls it;</li>
 * <li>{@value #GUARDED_SERVICE}, a second HTTP service on the simulator with a circuit that opens after 2 of
 * 4 calls and half-opens after 2 s, performing only {@value #GUARDED_OPERATION} (CircuitBreakerIT): the
 * circuit the other classes' orders go through ({@code remote-service}) keeps its defaults;</li>
 * <li>liveness's stuck bound at 2 s instead of 2 min (LivenessIT). It changes only what {@code /health/live}
 * answers, which no other class reads.</li>
 * </ul>
 * Every class's {@code @Deployment} returns this archive; one with other content under the same name is
 * refused, so a class that needs a server of its own must name its archive otherwise and say why.
 */
final class TheWar {

    static final String GUARDED_SERVICE = "guarded-payments";
    static final String GUARDED_OPERATION = "guarded-charge";
    private static final String CB = "overseer.agent.service." + GUARDED_SERVICE + ".";

    private TheWar() {
    }

    static WebArchive deployment() {
        WebArchive war = Deployments.overseerWar().addClasses(FraudScreening.class, OrderVetting.class,
                ApprovedCharge.class, StockAudit.class, StuckScreening.class, LocalOrdersProbe.class);
        return Deployments.withConfig(war, String.join("\n",
                "overseer.health.stuck-after=PT2S",
                "overseer.agent.http-services=remote-service," + GUARDED_SERVICE,
                CB + "url=" + TestStack.simulatorUrl() + "/operations/{operation}",
                CB + "operations=" + GUARDED_OPERATION,
                CB + "circuit.window=4",
                CB + "circuit.failure-ratio=0.5",
                CB + "circuit.open-for=PT2S",
                CB + "circuit.half-open-calls=1",
                ""));
    }
}
