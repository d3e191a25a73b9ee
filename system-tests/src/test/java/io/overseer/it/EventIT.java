package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.it.plugin.ApprovedCharge;
import io.overseer.support.Http;
import io.overseer.support.JmsProtocol;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.Problems;
import io.overseer.support.RemoteServiceCircuit;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Steps that wait for an external event: the "approved" workflow reserves, waits up to 8 s for an
 * "approval", then charges through a coded agent ({@link ApprovedCharge}) that needs the approval's body.
 * Approved over REST and over the JMS order queue, each ends Processed — the body reached the next step's
 * agent; a repeated event changes nothing; an event for an order not waiting for it is a 409 (REST) or the
 * DLQ with the reason (JMS); a wait whose deadline passes applies the step's policy (compensate).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EventIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @ArquillianResource
    URL base;

    private final SimulatorApi simulator = TestStack.simulator();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TheWar.deployment();
    }

    /** One server serves every class: the last one's faults may have left the remote service's circuit open. */
    @BeforeEach
    void remoteServiceCircuitClosed() {
        RemoteServiceCircuit.awaitClosed(URI.create(base.toString()));
    }

    private OrdersApi api() {
        return new OrdersApi(URI.create(base.toString()));
    }

    @Test
    void anApprovalOverRestCompletesTheWaitAndItsBodyReachesTheNextAgentOnce() {
        OrdersApi api = api();
        String orderId = waiting(api, "c-approved-rest");

        Http.Reply approved = deliver(api, orderId, "approval", "{\"approvedBy\":\"alice\",\"limit\":500}");
        assertEquals(200, approved.status(), approved.body());
        assertEquals("received", approved.json().get("outcome").asText());

        JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Compensated", "Error");
        assertEquals("Processed", order.get("processState").asText(), order.toString());
        assertTrue(api.history(orderId).toString().contains("event approval received"), api.history(orderId).toString());
        assertEquals(List.of("reserve-inventory"), operations(orderId), "the charge is the coded agent's");

        Http.Reply again = deliver(api, orderId, "approval", "{\"approvedBy\":\"mallory\"}");
        assertEquals(200, again.status(), again.body());
        assertEquals("already received", again.json().get("outcome").asText());
        assertEquals("Processed", api.get(orderId).get("processState").asText());

        String plain = api.submit("c-not-waiting", "single-charge");
        api.awaitState(plain, WAIT, "Processed");
        Problems.assertProblem(deliver(api, plain, "approval", "{}"), 409);
        Problems.assertProblem(deliver(api, UUID.randomUUID().toString(), "approval", "{}"), 404);
        Problems.assertProblem(deliver(api, orderId, "approval", "[1, 2]"), 400);
        Problems.assertProblem(deliver(api, orderId, "Not_An_Event", "{}"), 400);
    }

    @Test
    void anApprovalOverTheOrderQueueCompletesTheWaitAndOneForAFinishedOrderIsDeadLettered() throws Exception {
        OrdersApi api = api();
        String orderId = waiting(api, "c-approved-jms");
        sendEvent(orderId, "approval", "{\"approvedBy\":\"erp\"}", null);

        JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Compensated", "Error");
        assertEquals("Processed", order.get("processState").asText(), order.toString());
        assertTrue(api.history(orderId).toString().contains("jms:"), "the sender is named: " + api.history(orderId));

        String plain = api.submit("c-not-waiting-jms", "single-charge");
        api.awaitState(plain, WAIT, "Processed");
        String marker = "m-event-" + UUID.randomUUID();
        sendEvent(plain, "approval", "{}", marker);
        String reason = DeadLetterQueue.await(marker).getStringProperty("dlqReason");
        assertTrue(reason.contains("receive event 'approval' (not waiting for it)"), reason);
    }

    @Test
    void aWaitWhoseDeadlinePassesIsCompensated() {
        OrdersApi api = api();
        String orderId = waiting(api, "c-never-approved");

        JsonNode order = api.awaitState(orderId, WAIT, "Compensated", "Processed", "Error");

        assertEquals("Compensated", order.get("processState").asText(), order.toString());
        assertTrue(order.get("lastError").asText().contains("await-approval"), order.toString());
        assertEquals(List.of("reserve-inventory", "release-inventory"), operations(orderId));
        Problems.assertProblem(deliver(api, orderId, "approval", "{\"approvedBy\":\"late\"}"), 409);
    }

    /** Submits an "approved" order and waits until it waits for its approval. */
    private String waiting(OrdersApi api, String customer) {
        String orderId = api.submit(customer, "approved");
        Poll.until("order " + orderId + " waiting for its approval", WAIT,
                () -> "Running".equals(api.get(orderId).get("steps").get(1).get("state").asText()));
        return orderId;
    }

    private static Http.Reply deliver(OrdersApi api, String orderId, String event, String body) {
        return Http.post(api.base().resolve("api/orders/" + orderId + "/events/" + event), "application/json", body,
                api.credentials());
    }

    private static void sendEvent(String orderId, String event, String body, String marker) throws Exception {
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            var producer = jms.createProducer().setProperty("overseerType", "event").setProperty("orderId", orderId)
                    .setProperty("eventName", event);
            if (marker != null) {
                producer.setProperty("marker", marker);
            }
            producer.send(jms.createQueue("orders"), body);
        }
    }

    private List<String> operations(String orderId) {
        List<String> operations = new ArrayList<>();
        simulator.effects(orderId).forEach(effect -> operations.add(effect.get("operation").asText()));
        return operations;
    }
}
