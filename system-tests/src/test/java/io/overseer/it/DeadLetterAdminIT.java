package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The admin API's broker side against the real broker and server: queue counts and the dead-letter queue
 * through Artemis management, redrive and delete as audited operator actions, and who may do what.
 */
class DeadLetterAdminIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Http.Credentials OPERATOR = TestStack.credentials(TestStack.OPERATOR);
    private static final Http.Credentials VIEWER = TestStack.credentials(TestStack.VIEWER);
    private static final String REASON = "{\"reason\":\"checked by the test\"}";

    @Test
    void aPoisonMessageIsListedWithItsReasonComesBackWhenRedrivenAndIsGoneWhenDeleted() {
        String marker = "c-poison-" + UUID.randomUUID();
        send("orders", "{\"customerId\":\"" + marker + "\", not json", false);

        JsonNode dead = awaitDeadLetter(marker, -1);
        assertTrue(dead.get("reason").asText().startsWith("malformed order JSON"), dead.toString());
        assertEquals("orders", dead.get("originalQueue").asText());
        assertEquals("TextMessage", dead.get("type").asText());
        assertTrue(dead.get("timestamp").asText().endsWith("Z"), dead.toString());
        assertTrue(dlqDepth() >= 1);

        long first = dead.get("messageId").asLong();
        Http.Reply redriven = post("dead-letters/" + first + "/redrive", OPERATOR);
        assertEquals(200, redriven.status(), redriven.body());
        assertEquals(1, redriven.json().get("count").asInt());
        // Back on the order queue it is refused again: a new dead letter with the same body.
        long second = awaitDeadLetter(marker, first).get("messageId").asLong();
        assertNotEquals(first, second);
        assertEquals(1, audited("redrive-dead-letter", first, "sent back to its original queue"));

        Http.Reply deleted = post("dead-letters/" + second + "/delete", OPERATOR);
        assertEquals(200, deleted.status(), deleted.body());
        assertTrue(find(deadLetters(), marker).isEmpty(), "the deleted message is no longer listed");
        assertEquals(1, audited("delete-dead-letter", second, "deleted"));

        Http.Reply again = post("dead-letters/" + second + "/delete", OPERATOR);
        assertProblem(again, 404);
        assertEquals(1, audited("delete-dead-letter", second, "not found"));
        assertProblem(post("dead-letters/" + second + "/redrive", OPERATOR), 404);
    }

    @Test
    void aValidOrderTheBrokerDeadLetteredGetsItsOrderCreatedWhenRedriven() {
        String customer = "c-redrive-" + UUID.randomUUID();
        send("DLQ", OrdersApi.order(customer, "A-1", 1), true);
        JsonNode dead = awaitDeadLetter(customer, -1);
        assertEquals("orders", dead.get("originalQueue").asText());
        assertTrue(dead.get("reason").isNull(), "the broker gives no reason: " + dead);
        assertTrue(dead.get("orderId").isNull(), dead.toString());

        assertEquals(200, post("dead-letters/" + dead.get("messageId").asLong() + "/redrive", OPERATOR).status());

        String orderId = TestStack.awaitOrderOf(customer, WAIT);
        assertEquals("Processed", api.awaitState(orderId, Duration.ofSeconds(60), "Processed").get("processState").asText());
    }

    @Test
    void redriveAllSendsEveryDeadLetterWithAnOriginalQueueBack() {
        List<String> customers = List.of("c-all-" + UUID.randomUUID(), "c-all-" + UUID.randomUUID());
        for (String customer : customers) {
            send("DLQ", OrdersApi.order(customer, "A-1", 1), true);
            awaitDeadLetter(customer, -1);
        }

        Http.Reply reply = post("dead-letters/redrive", OPERATOR);

        assertEquals(200, reply.status(), reply.body());
        assertEquals("redrive-all", reply.json().get("action").asText());
        assertTrue(reply.json().get("count").asInt() >= 2, reply.body());
        for (String customer : customers) {
            TestStack.awaitOrderOf(customer, WAIT);
            assertTrue(find(deadLetters(), customer).isEmpty());
        }
        assertTrue(TestStack.scalar("SELECT count(*) FROM admin_audit WHERE action = 'redrive-dead-letters'"
                + " AND operator = ?", TestStack.OPERATOR.name()) >= 1);
    }

    @Test
    void theQueuesAreCountedThroughManagement() {
        Http.Reply reply = Http.get(admin("queues"), VIEWER);

        assertEquals(200, reply.status(), reply.body());
        List<String> names = new ArrayList<>();
        reply.json().forEach(queue -> names.add(queue.get("name").asText()));
        assertEquals(List.of("orders", "agent.requests", "agent.replies", "DLQ", "ExpiryQueue"), names);
        JsonNode orders = reply.json().get(0);
        assertTrue(orders.get("consumerCount").asInt() >= 1, "the order queue's listener: " + orders);
        for (String field : List.of("messageCount", "deliveringCount", "scheduledCount", "messagesAdded")) {
            assertTrue(orders.get(field).isNumber(), field + " in " + orders);
        }
    }

    @Test
    void viewersReadOperatorsActAnonymousCallersNeither() {
        assertEquals(200, Http.get(admin("dead-letters?limit=1"), VIEWER).status());
        assertProblem(post("dead-letters/redrive", VIEWER), 403);
        assertProblem(post("dead-letters/1/redrive", VIEWER), 403);
        assertProblem(post("dead-letters/1/delete", VIEWER), 403);
        assertProblem(Http.get(admin("queues"), null), 401);
        assertProblem(Http.get(admin("dead-letters"), null), 401);
        assertProblem(post("dead-letters/1/delete", null), 401);

        for (String limit : List.of("0", "501", "x")) {
            JsonNode problem = assertProblem(Http.get(admin("dead-letters?limit=" + limit), VIEWER), 400);
            assertEquals("limit", problem.get("errors").get(0).get("field").asText(), problem.toString());
        }
        assertProblem(Http.post(admin("dead-letters/1/delete"), "{\"reason\":\"\"}", OPERATOR.user(),
                OPERATOR.password()), 400);
    }

    /**
     * A frozen broker (SIGSTOP) answers nothing: each call is a 503 problem within the bound instead of a
     * hung request, an action's outcome is audited as unknown, and the page works again once it wakes.
     */
    @Test
    void aFrozenBrokerIsA503WithinTheBoundNotAHungRequest() {
        long broker = TestStack.broker().pid();
        signal(broker, "STOP");
        try {
            for (String path : List.of("queues", "dead-letters", "queues")) {
                long started = System.nanoTime();
                Http.Reply reply = Http.get(admin(path), VIEWER);
                long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
                assertProblem(reply, 503);
                assertTrue(reply.header("Retry-After") != null, reply.headers().toString());
                assertTrue(millis < 8000, path + " answered after " + millis + " ms");
            }
            assertProblem(post("dead-letters/999999999/delete", OPERATOR), 503);
        } finally {
            signal(broker, "CONT");
        }
        assertEquals(1, TestStack.scalar("SELECT count(*) FROM admin_audit WHERE target = 'dead-letter 999999999'"
                + " AND (outcome LIKE 'outcome unknown: %' OR outcome LIKE 'not done: %') AND operator = ?",
                TestStack.OPERATOR.name()));
        Poll.until("the queues counted again after the broker woke", Duration.ofSeconds(60),
                () -> Http.get(admin("queues"), VIEWER).status() == 200);
    }

    /** Sends SIGSTOP or SIGCONT to the broker's process and its children. */
    private static void signal(long pid, String signal) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal, Long.toString(pid)));
        ProcessHandle.of(pid).ifPresent(root -> root.descendants().forEach(child -> command.add(Long.toString(child.pid()))));
        try {
            assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor(), String.join(" ", command));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends as the broker's operator; to the DLQ as Artemis itself would after too many deliveries. */
    private static void send(String queue, String body, boolean asIfFromOrders) {
        try (var factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext()) {
            var producer = jms.createProducer();
            if (asIfFromOrders) {
                producer.setProperty("_AMQ_ORIG_ADDRESS", "orders").setProperty("_AMQ_ORIG_QUEUE", "orders");
            }
            producer.send(jms.createQueue(queue), body);
        }
    }

    /** The listed dead letter whose body holds {@code marker}, other than message {@code not}. */
    private JsonNode awaitDeadLetter(String marker, long not) {
        JsonNode[] found = new JsonNode[1];
        Poll.until("a dead letter about " + marker, WAIT, () -> {
            List<JsonNode> letters = find(deadLetters(), marker);
            letters.removeIf(letter -> letter.get("messageId").asLong() == not);
            found[0] = letters.isEmpty() ? null : letters.get(0);
            return found[0] != null;
        });
        return found[0];
    }

    private JsonNode deadLetters() {
        Http.Reply reply = Http.get(admin("dead-letters?limit=500"), VIEWER);
        assertEquals(200, reply.status(), reply.body());
        return reply.json();
    }

    private static List<JsonNode> find(JsonNode letters, String marker) {
        List<JsonNode> found = new ArrayList<>();
        letters.forEach(letter -> {
            if (!letter.get("body").isNull() && letter.get("body").asText().contains(marker)) {
                found.add(letter);
            }
        });
        return found;
    }

    private long dlqDepth() {
        for (JsonNode queue : Http.get(admin("queues"), VIEWER).json()) {
            if (queue.get("name").asText().equals("DLQ")) {
                return queue.get("messageCount").asLong();
            }
        }
        throw new AssertionError("no DLQ in the queues");
    }

    private static long audited(String action, long messageId, String outcome) {
        return TestStack.scalar("SELECT count(*) FROM admin_audit WHERE action = '" + action + "' AND target = 'dead-letter "
                + messageId + "' AND outcome = '" + outcome + "' AND operator = ?", TestStack.OPERATOR.name());
    }

    private Http.Reply post(String path, Http.Credentials credentials) {
        return Http.post(admin(path), "application/json", REASON, credentials);
    }

    private URI admin(String path) {
        return root.resolve("api/admin/" + path);
    }

    private static JsonNode assertProblem(Http.Reply reply, int status) {
        assertEquals(status, reply.status(), reply.body());
        assertTrue(reply.contentType().startsWith("application/problem+json"), reply.contentType());
        return reply.json();
    }
}
