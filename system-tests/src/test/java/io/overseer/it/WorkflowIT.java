package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.AlertSubscriber;
import io.overseer.support.OrdersApi;
import io.overseer.support.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Multi-step workflows: the default order workflow (reserve-inventory → charge-payment →
 * arrange-shipping), its compensation in reverse order when a step fails for good, a second task type
 * defined only by configuration, and the audit history.
 */
class WorkflowIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aThreeStepOrderIsProcessedWithEachOperationAppliedOnceInOrder() {
        String orderId = api.submit("c-three");

        JsonNode order = api.awaitState(orderId, WAIT, "Processed");

        assertEquals(List.of("reserve-inventory", "charge-payment", "arrange-shipping"), names(order.get("steps")));
        order.get("steps").forEach(step -> assertEquals("Completed", step.get("state").asText(), step.toString()));
        assertEquals(List.of("reserve-inventory", "charge-payment", "arrange-shipping"), operations(orderId));
        assertEquals(0, simulator.stats().get("appliedTwice").asInt());
    }

    @Test
    void aFatalFaultOnShippingRefundsThePaymentThenReleasesTheInventory() {
        simulator.fault("arrange-shipping", "fatal", 1.0, 0);
        String orderId = api.submit("c-compensate");

        JsonNode order = api.awaitState(orderId, WAIT, "Compensated", "Error", "Processed");

        assertEquals("Compensated", order.get("processState").asText(), order.toString());
        assertEquals(List.of("Compensated", "Compensated", "Failed"), states(order.get("steps")));
        assertEquals(List.of("reserve-inventory", "charge-payment", "refund-payment", "release-inventory"),
                operations(orderId), "compensations run newest first");
        assertEquals(0, simulator.stats().get("appliedTwice").asInt());
    }

    @Test
    void aCompensationRefusedForGoodLeavesTheOrderInErrorWithAnAlert() {
        try (AlertSubscriber alerts = TestStack.alerts()) {
            simulator.fault("arrange-shipping", "fatal", 1.0, 0);
            simulator.fault("refund-payment", "fatal", 1.0, 0);
            String orderId = api.submit("c-compensation-fails");

            JsonNode order = api.awaitState(orderId, WAIT, "Error", "Compensated", "Processed");

            assertEquals("Error", order.get("processState").asText(), order.toString());
            assertEquals(List.of("Completed", "CompensationFailed", "Failed"), states(order.get("steps")));
            assertTrue(order.get("lastError").asText().startsWith("compensation of charge-payment failed"), order.toString());
            assertEquals("needs-operator", alerts.awaitFor(orderId, Duration.ofSeconds(20)).orElseThrow().get("kind").asText());
        }
    }

    @Test
    void aSecondTaskTypeDefinedByConfigurationRunsEndToEnd() {
        String orderId = api.submit("c-express", "express");

        JsonNode order = api.awaitState(orderId, WAIT, "Processed");

        assertEquals("express", order.get("workflow").asText());
        assertEquals(List.of("reserve-inventory", "arrange-shipping"), operations(orderId));
    }

    @Test
    void anUnknownTaskTypeIsRefused() {
        assertEquals(400, api.submitRaw("application/json", OrdersApi.order("c-x", "no-such-workflow")).status());
    }

    @Test
    void theHistoryRecordsEveryTransitionWithItsActor() {
        String orderId = api.submit("c-history", "express");
        api.awaitState(orderId, WAIT, "Processed");

        JsonNode history = api.history(orderId);

        List<String> moves = new ArrayList<>();
        history.forEach(h -> moves.add((h.get("step").isNull() ? "task" : h.get("step").asText()) + " "
                + h.get("from").asText() + ">" + h.get("to").asText() + " by " + h.get("actor").asText()));
        assertEquals(List.of("task null>Pending by submission", "task Pending>Processing by scheduler",
                "reserve-inventory NotStarted>Running by scheduler", "reserve-inventory Running>Completed by agent",
                "arrange-shipping NotStarted>Running by scheduler", "arrange-shipping Running>Completed by agent",
                "task Processing>Processed by agent"), moves);
        history.forEach(h -> assertTrue(h.hasNonNull("at") && h.hasNonNull("actorName"), h.toString()));
    }

    private List<String> operations(String orderId) {
        List<String> operations = new ArrayList<>();
        simulator.effects(orderId).forEach(effect -> operations.add(effect.get("operation").asText()));
        return operations;
    }

    private static List<String> names(JsonNode steps) {
        List<String> names = new ArrayList<>();
        steps.forEach(step -> names.add(step.get("name").asText()));
        return names;
    }

    private static List<String> states(JsonNode steps) {
        List<String> states = new ArrayList<>();
        steps.forEach(step -> states.add(step.get("state").asText()));
        return states;
    }
}
