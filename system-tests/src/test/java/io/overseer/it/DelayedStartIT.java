package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.JmsProtocol;
import io.overseer.support.Problems;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Delayed start: an order submitted with {@code notBefore} (REST or the JMS order queue) is accepted and
 * stored at once, shows its not-before in the order view and the listing, is not claimed before that
 * instant and is claimed by the due-order poller once it passes (not by the stranded-order poller, which
 * would only come by later). Cancelled while it waits, nothing is undone: no remote call was made. A
 * malformed or too distant not-before is a 400 problem, or the DLQ with the reason.
 */
class DelayedStartIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration DELAY = Duration.ofSeconds(5);

    @Test
    void aDelayedRestOrderWaitsForItsNotBeforeAndIsClaimedOnceItPasses() {
        Instant startAt = Instant.now().plus(DELAY).truncatedTo(ChronoUnit.MILLIS);
        Http.Reply reply = api.submitRaw("application/json", order("c-delayed-rest", startAt.toString()));
        assertEquals(202, reply.status(), reply.body());
        String orderId = reply.json().get("orderId").asText();

        JsonNode waiting = api.get(orderId);
        assertEquals("Pending", waiting.get("processState").asText(), waiting.toString());
        assertEquals(startAt, Instant.parse(waiting.get("notBefore").asText()), waiting.toString());
        JsonNode listed = listed(orderId);
        assertEquals(startAt, Instant.parse(listed.get("notBefore").asText()), listed.toString());

        assertClaimedAfter(orderId, startAt);
    }

    @Test
    void aDelayedJmsOrderWaitsForItsNotBeforeToo() throws Exception {
        String customer = "c-delayed-jms-" + UUID.randomUUID();
        Instant startAt = Instant.now().plus(DELAY).truncatedTo(ChronoUnit.MILLIS);
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            jms.createProducer().send(jms.createQueue("orders"), order(customer, startAt.atOffset(
                    java.time.ZoneOffset.ofHours(2)).toString()));
        }
        String orderId = TestStack.awaitOrderOf(customer, WAIT);
        assertEquals(startAt, Instant.parse(api.get(orderId).get("notBefore").asText()));

        assertClaimedAfter(orderId, startAt);
    }

    @Test
    void cancellingADelayedOrderUndoesNothing() {
        Instant startAt = Instant.now().plus(Duration.ofMinutes(10));
        Http.Reply reply = api.submitRaw("application/json", order("c-delayed-cancel", startAt.toString()));
        assertEquals(202, reply.status(), reply.body());
        String orderId = reply.json().get("orderId").asText();

        Http.Reply cancel = api.operator(orderId, "cancel", "no longer wanted", TestStack.OPERATOR.name(),
                TestStack.OPERATOR.password());

        assertEquals(200, cancel.status(), cancel.body());
        JsonNode order = api.awaitState(orderId, WAIT, "Compensated", "Error");
        assertEquals("Compensated", order.get("processState").asText(), order.toString());
        assertTrue(order.get("notBefore").isNull(), order.toString());
        assertEquals(0, simulator.effects(orderId).size(), "no step ran, so nothing was called or undone");
    }

    @Test
    void aMalformedOrTooDistantNotBeforeIsRefusedAndStoresNothing() throws Exception {
        long before = TestStack.countOrders();
        JsonNode malformed = Problems.assertProblem(api.submitRaw("application/json", order("c-bad-delay", "tomorrow")), 400);
        assertTrue(malformed.get("detail").asText().contains("ISO-8601"), malformed.toString());
        String farAhead = OffsetDateTime.now().plusYears(2).toString();
        JsonNode distant = Problems.assertProblem(api.submitRaw("application/json", order("c-bad-delay", farAhead)), 400);
        assertTrue(distant.get("detail").asText().contains("366 days"), distant.toString());

        String marker = "m-delay-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            jms.createProducer().setProperty("marker", marker)
                    .send(jms.createQueue("orders"), order("c-bad-delay-jms", "next tuesday"));
        }
        String reason = DeadLetterQueue.await(marker).getStringProperty("dlqReason");
        assertNotNull(reason);
        assertTrue(reason.contains("notBefore must be an ISO-8601 date-time"), reason);
        assertEquals(before, TestStack.countOrders());
    }

    private static String order(String customerId, String notBefore) {
        return "{\"customerId\":\"" + customerId + "\",\"notBefore\":\"" + notBefore
                + "\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]}";
    }

    /**
     * Processed, first claimed no earlier than its not-before (the database clock on this machine), by the
     * due-order poller, which comes every second: the stranded-order poller takes a delayed order only once
     * it has been due for its stranded-after (5 s in the test stack) and still untouched.
     */
    private void assertClaimedAfter(String orderId, Instant startAt) {
        JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
        assertEquals("Processed", order.get("processState").asText(), order.toString());
        JsonNode claim = null;
        for (JsonNode entry : api.history(orderId)) {
            if (claim == null && "Processing".equals(entry.path("to").asText())) {
                claim = entry;
            }
        }
        assertNotNull(claim, api.history(orderId).toString());
        Instant claimedAt = Instant.parse(claim.get("at").asText());
        assertFalse(claimedAt.isBefore(startAt), "claimed at " + claimedAt + ", before " + startAt);
        assertEquals("claimed: its not-before passed", claim.get("reason").asText(), claim.toString());
    }

    private JsonNode listed(String orderId) {
        JsonNode[] found = new JsonNode[1];
        // Pending orders, oldest first, page by page: the delayed one is among the newest.
        String page = "api/orders?state=Pending&limit=200";
        while (page != null && found[0] == null) {
            Http.Reply reply = api.getRaw(page);
            assertEquals(200, reply.status(), reply.body());
            for (JsonNode each : reply.json().path("orders")) {
                if (orderId.equals(each.path("orderId").asText())) {
                    found[0] = each;
                }
            }
            JsonNode next = reply.json().path("next");
            page = next.isTextual() ? next.asText() : null;
        }
        assertNotNull(found[0], "order " + orderId + " listed as Pending");
        return found[0];
    }
}
