package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.it.plugin.FraudScreening;
import io.overseer.it.plugin.OrderVetting;
import io.overseer.support.Metrics;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.RemoteServiceCircuit;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * The agent SPI: a coded agent ({@link FraudScreening}, added to the WAR by {@link TheWar}) takes the operation it
 * claims from the catch-all HTTP agent, with its own circuit breaker and the agent's deadline, retries and
 * reply around it. The "screened" workflow screens, then charges; the "vetted" one reserves, then has the order
 * vetted by a second coded agent ({@link OrderVetting}) that refuses every order at length.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AgentSpiIT {

    private static final String SCREENED = "screened";
    private static final String VETTED = "vetted";

    @ArquillianResource
    URL base;

    private OrdersApi api;
    private final SimulatorApi simulator = TestStack.simulator();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TheWar.deployment();
    }

    @BeforeEach
    void connect() {
        api = new OrdersApi(URI.create(base.toString()));
        simulator.clearFaults();
        RemoteServiceCircuit.awaitClosed(URI.create(base.toString()));
    }

    @AfterEach
    void clearFaults() {
        simulator.clearFaults();
    }

    @Test
    void theCodedAgentPerformsTheOperationItClaimsBehindItsOwnCircuit() {
        String orderId = api.submit("c-screened", SCREENED);

        api.awaitState(orderId, Duration.ofSeconds(60), "Processed");

        assertEquals(List.of(FraudScreening.REMOTE_OPERATION, "charge-payment"), operations(orderId),
                "screen-order went to the coded agent, charge-payment to the HTTP agent");
        Metrics metrics = Metrics.scrape(URI.create(base.toString()));
        assertEquals(1, metrics.sum("overseer_agent_circuit_state", "service", "fraud-screening", "state", "closed"),
                metrics.text());
        assertEquals(1, metrics.sum("overseer_agent_circuit_state", "service", "remote-service", "state", "closed"));
        assertTrue(metrics.sum("overseer_agent_calls_total", "operation", "screen-order") >= 1, metrics.text());
    }

    @Test
    void theCodedAgentsClassificationDecidesRetriesAndRefusals() {
        simulator.fault(FraudScreening.REMOTE_OPERATION, "error", 1.0, 0);
        URI root = URI.create(base.toString());
        double retriesBefore = Metrics.scrape(root).sum("overseer_agent_retries_total", "operation", "screen-order");
        String retried = api.submit("c-screen-retried", SCREENED);
        Poll.until("the coded agent to retry", Duration.ofSeconds(20),
                () -> Metrics.scrape(root).sum("overseer_agent_retries_total", "operation", "screen-order") > retriesBefore);
        simulator.clearFaults();
        JsonNode processed = api.awaitState(retried, Duration.ofSeconds(60), "Processed");
        assertEquals(0, processed.get("failureCount").asInt(), "503s were retried inside the attempt: " + processed);

        simulator.fault(FraudScreening.REMOTE_OPERATION, "fatal", 1.0, 0);
        String rejected = api.submit("c-screen-rejected", SCREENED);
        JsonNode error = api.awaitState(rejected, Duration.ofSeconds(60), "Error", "Processed");
        assertEquals("Error", error.get("processState").asText());
        assertTrue(error.get("lastError").asText().contains("screening rejected the order"), error.toString());
        assertEquals(List.of(), operations(rejected), "nothing applied, nothing charged");
    }

    @Test
    void aCodedAgentsLongRefusalFailsTheStepAndTheOrderCompensates() {
        assertTrue(OrderVetting.REFUSAL.length() >= 5000, "longer than any column it could be stored in");
        String orderId = api.submit("c-vetted", VETTED);

        JsonNode order = api.awaitState(orderId, Duration.ofSeconds(60), "Compensated", "Error", "Processed");

        assertEquals("Compensated", order.get("processState").asText(), order.toString());
        List<String> steps = new ArrayList<>();
        order.get("steps").forEach(step -> steps.add(step.get("name").asText() + " " + step.get("state").asText()));
        assertEquals(List.of("reserve-inventory Compensated", "vet-order Failed"), steps,
                "the refusal failed the step (a reply that cannot be stored leaves it to time out)");
        assertEquals(0, order.get("failureCount").asInt(), "no attempt expired: the refusal was applied at once");
        String lastError = order.get("lastError").asText();
        assertTrue(lastError.startsWith("vet-order failed: vet-order: vetting refused the order: rule 1"), lastError);
        assertTrue(lastError.length() <= 1000, "bounded to its column: " + lastError.length());
        assertEquals(List.of("reserve-inventory", "release-inventory"), operations(orderId));
        assertEquals(0, DeadLetterQueue.countFor(orderId), "the reply was applied, not redelivered into the DLQ");
    }

    private List<String> operations(String orderId) {
        List<String> operations = new ArrayList<>();
        simulator.effects(orderId).forEach(effect -> operations.add(effect.get("operation").asText()));
        return operations;
    }
}
