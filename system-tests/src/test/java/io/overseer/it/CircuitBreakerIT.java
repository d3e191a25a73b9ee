package io.overseer.it;

import io.overseer.support.Poll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.overseer.support.Metrics;
import io.overseer.support.OrdersApi;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent's circuit breaker on Payara Micro, observed the way an operator would: through GET /metrics.
 * A remote service that answers 503 to everything opens the circuit; once it recovers the circuit
 * half-opens, closes, and the orders held up still reach Processed. A business refusal (422) does not
 * open it. The service is {@link TheWar}'s second HTTP service on the simulator, performing only this class's
 * operation, with thresholds lowered through MicroProfile Config so that this takes seconds; the circuit of
 * the service every other class's orders go through never sees these faults.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class CircuitBreakerIT {

    /** One step, the guarded service's operation, Error when it gives up. */
    private static final String SINGLE = "guarded";
    private static final String OPERATION = TheWar.GUARDED_OPERATION;
    private static final String SERVICE = TheWar.GUARDED_SERVICE;

    @ArquillianResource
    URL base;

    private OrdersApi api;
    private URI root;
    private final SimulatorApi simulator = TestStack.simulator();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TheWar.deployment();
    }

    @BeforeEach
    void connect() throws Exception {
        root = URI.create(base.toString());
        api = new OrdersApi(root);
        simulator.clearFaults();
    }

    @AfterEach
    void clearFaults() {
        simulator.clearFaults();
    }

    @Test
    void aFailingServiceOpensTheCircuitWhichClosesOnceItRecoversAndTheOrdersComplete() throws Exception {
        double openedBefore = opened(Metrics.scrape(root));
        simulator.fault(OPERATION, "error", 1.0, 0);
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            orders.add(api.submit("c-circuit-" + i, SINGLE));
        }

        Metrics whileFailing = await(Duration.ofSeconds(20), "the circuit to open",
                m -> opened(m) > openedBefore && state(m, "open") == 1 && m.sum("overseer_agent_failures_total",
                        "operation", OPERATION, "kind", "circuit-open") > 0);
        dump("circuit-open", whileFailing);
        assertTrue(whileFailing.sum("overseer_agent_failures_total", "operation", OPERATION, "kind", "transient") >= 2,
                whileFailing.text());
        assertTrue(whileFailing.sum("overseer_agent_retries_total", "operation", OPERATION) >= 1, whileFailing.text());
        for (String orderId : orders) {
            assertEquals(0, simulator.effects(orderId).size(), "a failing service applies nothing");
        }

        simulator.clearFaults();
        for (String orderId : orders) {
            api.awaitState(orderId, Duration.ofSeconds(40), "Processed");
            assertEquals(1, simulator.effects(orderId).size(), "applied once: " + orderId);
        }
        Metrics recovered = awaitClosed();
        dump("circuit-closed", recovered);
        assertTrue(recovered.sum("overseer_agent_calls_total", "operation", OPERATION) >= 5, recovered.text());
        assertTrue(recovered.sum("overseer_agent_call_duration_seconds_count", "operation", OPERATION) >= 5,
                recovered.text());
    }

    @Test
    void businessRefusalsDoNotOpenTheCircuit() throws Exception {
        Metrics before = awaitClosed();
        simulator.fault(OPERATION, "fatal", 1.0, 0);
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            orders.add(api.submit("c-refused-" + i, SINGLE));
        }
        for (String orderId : orders) {
            api.awaitState(orderId, Duration.ofSeconds(30), "Error");
        }

        Metrics after = Metrics.scrape(root);
        dump("refusals", after);
        assertEquals(opened(before), opened(after), "refusals opened the circuit:\n" + after.text());
        awaitClosed();
        assertTrue(after.sum("overseer_agent_failures_total", "operation", OPERATION, "kind", "nontransient")
                - before.sum("overseer_agent_failures_total", "operation", OPERATION, "kind", "nontransient") >= 6,
                after.text());
    }

    private static double opened(Metrics m) {
        return m.sum("overseer_agent_circuit_opened_total", "service", SERVICE);
    }

    /** 1 when the service's circuit is in this state, else 0. */
    private static double state(Metrics m, String state) {
        return m.sum("overseer_agent_circuit_state", "service", SERVICE, "state", state);
    }

    private Metrics awaitClosed() {
        // An open circuit turns half-open only on a call after open-for: an idle service's stays open. A call
        // still under way when the test cleared the fault can fail late and reopen it after the orders are
        // done; an order every few seconds gives it the call it needs.
        long[] nextProbe = {System.nanoTime()};
        return await(Duration.ofSeconds(30), "the circuit to close", m -> {
            if (state(m, "open") == 1 && System.nanoTime() > nextProbe[0]) {
                api.submit("c-circuit-probe", SINGLE);
                nextProbe[0] = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            }
            return state(m, "closed") == 1;
        });
    }

    private Metrics await(Duration timeout, String what, Predicate<Metrics> condition) {
        Poll.Reading<Metrics> reading = Poll.await(timeout, Duration.ofMillis(200), () -> Metrics.scrape(root), condition);
        if (reading.met()) {
            return reading.value();
        }
        Metrics last = reading.value();
        dump("timeout", last);
        return fail("Waited " + timeout + " for " + what + "; orders: " + TestStack.statesSummary()
                + "; last scrape:\n" + (last == null ? "none" : last.text()));
    }

    /** Keeps the scrape under target/ for whoever reads the results. */
    private static void dump(String name, Metrics m) {
        if (m != null) {
            try {
                Path dir = Files.createDirectories(Path.of("target", "metrics"));
                Files.writeString(dir.resolve("circuit-breaker-" + name + ".txt"), m.text());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
