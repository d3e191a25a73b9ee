package io.overseer.it;

import io.overseer.support.Poll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.AlertSubscriber;
import io.overseer.support.TestStack;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The pattern's single-step flow on Payara Micro with real PostgreSQL, Artemis and the remote-service
 * simulator: submit → scheduler → agent → Processed, and the supervisor's recovery of what times out.
 * It uses the "single-charge" task type (one step, giving up means Error), defined by configuration in
 * {@link TestStack}. The server runs with a 3 s complete-by and 3 retries, so expiries come quickly.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OrderFlowIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String SINGLE = "single-charge";

    /**
     * First: the tests below leave the remote service's circuit open for a while (their timeouts count as
     * its failures), and a call the open circuit refuses makes this order expire, which is not what this
     * test is about (seen in CI on a loaded machine: failureCount 2). CircuitBreakerIT covers the circuit.
     */
    @Test
    @Order(1)
    void anOrderIsProcessedAndItsEffectAppliedOnce() {
        String orderId = api.submit("c-flow", SINGLE);

        JsonNode order = api.awaitState(orderId, WAIT, "Processed");

        assertEquals(0, order.get("failureCount").asInt());
        assertTrue(order.get("lockedBy").isNull(), "a Processed order is not locked: " + order);
        assertEquals("charge-payment", order.get("steps").get(0).get("name").asText());
        assertEquals("Completed", order.get("steps").get(0).get("state").asText());
        assertEquals(1, simulator.effects(orderId).size());
    }

    @Test
    void aHangingServiceIsRetriedBySupervisorAndTheOrderCompletesOnceTheFaultClears() {
        simulator.fault("charge-payment", "hang", 1.0, 0);
        String orderId = api.submit("c-hang", SINGLE);

        awaitFailureCount(orderId, 1);
        assertEquals(0, simulator.effects(orderId).size(), "a hanging service applies nothing");
        simulator.clearFaults();
        JsonNode order = api.awaitState(orderId, WAIT, "Processed");

        assertTrue(order.get("failureCount").asInt() >= 1, "the supervisor counted the expiry: " + order);
        assertEquals(1, simulator.effects(orderId).size());
    }

    @Test
    void aNontransientFaultEndsInErrorWithAnAlert() {
        try (AlertSubscriber alerts = TestStack.alerts()) {
            simulator.fault("charge-payment", "fatal", 1.0, 0);
            String orderId = api.submit("c-fatal", SINGLE);

            JsonNode order = api.awaitState(orderId, WAIT, "Error", "Processed");

            assertEquals("Error", order.get("processState").asText());
            assertEquals("Failed", order.get("steps").get(0).get("state").asText());
            assertTrue(order.get("lastError").asText().contains("422"), order.toString());
            JsonNode alert = alerts.awaitFor(orderId, Duration.ofSeconds(20)).orElseThrow();
            assertEquals("needs-operator", alert.get("kind").asText());
            assertEquals(0, simulator.effects(orderId).size());
        }
    }

    @Test
    void anOrderThatKeepsExpiringEndsInErrorPastTheThresholdWithAnAlert() {
        try (AlertSubscriber alerts = TestStack.alerts()) {
            simulator.fault("charge-payment", "hang", 1.0, 0);
            String orderId = api.submit("c-expire", SINGLE);

            JsonNode order = api.awaitState(orderId, Duration.ofSeconds(90), "Error", "Processed");

            assertEquals("Error", order.get("processState").asText());
            assertEquals(TestStack.MAX_RETRIES + 1, order.get("failureCount").asInt(), order.toString());
            JsonNode alert = alerts.awaitFor(orderId, Duration.ofSeconds(20)).orElseThrow();
            assertEquals("needs-operator", alert.get("kind").asText());
            assertEquals("TimedOut", order.get("steps").get(0).get("state").asText());
        }
    }

    private void awaitFailureCount(String orderId, int atLeast) {
        Poll.until("failureCount of " + orderId + " to reach " + atLeast, WAIT, Duration.ofMillis(200),
                () -> api.get(orderId), order -> order.get("failureCount").asInt() >= atLeast);
    }
}
