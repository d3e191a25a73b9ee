package io.overseer.it;

import io.overseer.support.Poll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.TestStack;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Operator actions over REST (role operator): resubmit an order in Error, cancel one in flight. */
class OperatorIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void anOperatorResubmitsAnOrderStuckInErrorOnceTheFaultClears() {
        simulator.fault("charge-payment", "fatal", 1.0, 0);
        String orderId = api.submit("c-resubmit", "single-charge");
        api.awaitState(orderId, WAIT, "Error");
        simulator.clearFaults();

        Http.Reply reply = api.operator(orderId, "resubmit", "payment provider fixed", TestStack.OPERATOR.name(),
                TestStack.OPERATOR.password());

        assertEquals(200, reply.status(), reply.body());
        assertEquals("Processed", api.awaitState(orderId, WAIT, "Processed").get("processState").asText());
        assertEquals(1, simulator.effects(orderId).size());
        JsonNode resubmitted = find(api.history(orderId), "operator");
        assertEquals(TestStack.OPERATOR.name(), resubmitted.get("actorName").asText());
        assertEquals("payment provider fixed", resubmitted.get("reason").asText());
    }

    @Test
    void cancellingAnOrderInFlightUndoesWhatItDid() {
        simulator.fault("charge-payment", "hang", 1.0, 0);
        String orderId = api.submit("c-cancel");
        awaitStep(orderId, 1, "Running");

        Http.Reply reply = api.operator(orderId, "cancel", "customer withdrew", TestStack.OPERATOR.name(),
                TestStack.OPERATOR.password());

        assertEquals(200, reply.status(), reply.body());
        simulator.clearFaults();
        assertEquals("Compensated", api.awaitState(orderId, WAIT, "Compensated", "Error").get("processState").asText());
        List<String> operations = new ArrayList<>();
        simulator.effects(orderId).forEach(e -> operations.add(e.get("operation").asText()));
        assertEquals(List.of("reserve-inventory", "refund-payment", "release-inventory"), operations,
                "the abandoned charge's outcome is unknown, so it is refunded too");
    }

    @Test
    void operatorActionsNeedTheOperatorRoleAndALegalState() {
        String orderId = api.submit("c-guard", "single-charge");
        api.awaitState(orderId, WAIT, "Processed");

        Http.Reply unauthorized = api.operator(orderId, "cancel", "x", "nobody", "wrong");
        assertEquals(401, unauthorized.status());
        assertTrue(unauthorized.contentType().startsWith("application/problem+json"), unauthorized.contentType());
        assertEquals(401, unauthorized.json().get("status").asInt());
        Http.Reply conflict = api.operator(orderId, "resubmit", "x", TestStack.OPERATOR.name(), TestStack.OPERATOR.password());
        assertEquals(409, conflict.status(), conflict.body());
        assertTrue(conflict.contentType().startsWith("application/problem+json"));
        assertEquals(400, api.operator(orderId, "cancel", "", TestStack.OPERATOR.name(), TestStack.OPERATOR.password()).status());
    }

    /**
     * The console's former URLs of the order actions send the caller to the one URL of each (docs/http-api.md,
     * Changes): 308, so the same POST with the same body is repeated there, and answered there alone.
     */
    @Test
    void theFormerConsoleActionUrlsRedirectToTheOperatorOnes() {
        String orderId = api.submit("c-moved", "single-charge");
        api.awaitState(orderId, WAIT, "Processed");
        String body = "{\"reason\":\"moved\"}";
        Http.Credentials operator = TestStack.credentials(TestStack.OPERATOR);

        for (String action : List.of("resubmit", "cancel")) {
            Http.Reply moved = Http.post(root.resolve("api/admin/orders/" + orderId + "/" + action), "application/json",
                    body, operator);
            assertEquals(308, moved.status(), moved.body());
            URI target = root.resolve(moved.location());
            assertEquals(root.resolve("api/operator/orders/" + orderId + "/" + action), target);
            Http.Reply there = Http.post(target, "application/json", body, operator);
            assertEquals(409, there.status(), "a Processed order takes neither action: " + there.body());
        }
        assertEquals(404, Http.post(root.resolve("api/admin/orders/" + orderId + "/delete"), "application/json", body,
                operator).status(), "only the two actions moved");
        assertEquals(403, Http.post(root.resolve("api/admin/orders/" + orderId + "/cancel"), "application/json", body,
                TestStack.credentials(TestStack.VIEWER)).status(), "the old URL still needs the operator role");
        for (JsonNode entry : api.history(orderId)) {
            assertNotEquals("operator", entry.get("actor").asText(), "no action was taken: " + entry);
        }
    }

    private void awaitStep(String orderId, int step, String state) {
        Poll.until("step " + step + " of " + orderId + " to be " + state, WAIT, Duration.ofMillis(100),
                () -> api.get(orderId), order -> order.get("steps").get(step).get("state").asText().equals(state));
    }

    private static JsonNode find(JsonNode history, String actor) {
        for (JsonNode entry : history) {
            if (entry.get("actor").asText().equals(actor)) {
                return entry;
            }
        }
        throw new AssertionError("no " + actor + " entry in " + history);
    }
}
