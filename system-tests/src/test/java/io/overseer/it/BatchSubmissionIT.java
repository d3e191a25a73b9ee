package io.overseer.it;

import static io.overseer.support.Problems.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.Problems;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import jakarta.jms.TextMessage;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Many orders at once, over each way in: {@code POST /api/orders/batch} (valid orders all Processed; bad ones
 * refused alone with their problems while the others are stored; a retried batch creates nothing; a key
 * reused for another order refuses that order alone; over the bound, 413 and nothing stored), one order-queue
 * message of many orders (the bad one in the DLQ alone with its reason), and the in-process API, which joins
 * its caller's transaction (a caller that rolls back leaves no order). One-step orders, to stay quick.
 */
class BatchSubmissionIT extends DeployedWarIT {

    private static final Duration PROCESSED = Duration.ofSeconds(60);

    @Test
    void aBatchOfValidOrdersIsAcceptedWholeAndEachOrderIsProcessed() {
        String customer = "c-batch-ok-" + UUID.randomUUID();
        Http.Reply reply = batch(order(customer + "-0", null), order(customer + "-1", null), order(customer + "-2", null));

        assertEquals(200, reply.status(), reply.body());
        JsonNode answer = reply.json();
        assertEquals(3, answer.get("accepted").asInt(), reply.body());
        assertEquals(0, answer.get("refused").asInt(), reply.body());
        for (int i = 0; i < 3; i++) {
            JsonNode result = answer.get("results").get(i);
            assertEquals(i, result.get("index").asInt());
            assertEquals(202, result.get("status").asInt(), result.toString());
            assertTrue(result.get("location").asText().endsWith("/api/orders/" + result.get("orderId").asText()), result.toString());
            assertEquals(1, ordersOf(customer + "-" + i));
        }
        awaitProcessed(answer);
    }

    @Test
    void eachBadOrderIsRefusedAloneWithItsProblemAndTheOthersAreProcessed() {
        String customer = "c-batch-bad-" + UUID.randomUUID();
        Http.Reply reply = batch(order(customer + "-good-0", null),
                "{\"customerId\":\"" + customer + "-zero\",\"workflow\":\"single-charge\",\"items\":[{\"sku\":\"A-1\",\"quantity\":0}]}",
                "{\"customerId\":\"" + customer + "-typo\",\"worklfow\":\"single-charge\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]}",
                "{\"customerId\":\"" + customer + "-nope\",\"workflow\":\"nope\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]}",
                "42",
                order(customer + "-good-5", null));

        assertEquals(200, reply.status(), reply.body());
        JsonNode results = reply.json().get("results");
        assertEquals(2, reply.json().get("accepted").asInt(), reply.body());
        assertEquals(4, reply.json().get("refused").asInt(), reply.body());
        assertEquals(List.of(202, 400, 400, 400, 400, 202), statuses(results));
        assertEquals(List.of("items[0].quantity"), Problems.fields(results.get(1).get("problem")), results.get(1).toString());
        assertEquals(List.of("worklfow"), Problems.fields(results.get(2).get("problem")), results.get(2).toString());
        assertTrue(results.get(3).get("problem").get("detail").asText().contains("unknown workflow 'nope'"), results.get(3).toString());
        assertEquals(400, results.get(4).get("problem").get("status").asInt());
        for (String refused : List.of("-zero", "-typo", "-nope")) {
            assertEquals(0, ordersOf(customer + refused), refused);
        }
        awaitProcessed(reply.json());
    }

    @Test
    void aRetriedBatchAnswersItsEarlierOrdersAndCreatesNothing() {
        String customer = "c-batch-retry-" + UUID.randomUUID();
        String[] orders = {order(customer + "-0", "k-0-" + customer), order(customer + "-1", "k-1-" + customer)};

        JsonNode first = batch(orders).json();
        JsonNode retry = batch(orders).json();

        for (int i = 0; i < 2; i++) {
            JsonNode created = first.get("results").get(i);
            JsonNode replayed = retry.get("results").get(i);
            assertFalse(created.has("replayed"), created.toString());
            assertEquals(202, replayed.get("status").asInt(), replayed.toString());
            assertTrue(replayed.get("replayed").asBoolean(), replayed.toString());
            assertEquals(created.get("orderId"), replayed.get("orderId"));
            assertEquals(1, ordersOf(customer + "-" + i));
        }
    }

    @Test
    void aKeyReusedForAnotherOrderRefusesThatOrderAlone() {
        String customer = "c-batch-reuse-" + UUID.randomUUID();
        String key = "k-" + customer;
        assertEquals(202, batch(order(customer + "-a", key)).json().get("results").get(0).get("status").asInt());

        Http.Reply reply = batch(order(customer + "-b", key), order(customer + "-c", "k2-" + customer));

        JsonNode results = reply.json().get("results");
        assertEquals(List.of(422, 202), statuses(results), reply.body());
        assertEquals("Idempotency-Key reused", results.get(0).get("problem").get("title").asText());
        assertEquals(0, ordersOf(customer + "-b"));
        assertEquals(1, ordersOf(customer + "-c"));
    }

    @Test
    void aBatchOverTheBoundIs413AndStoresNothing() {
        String customer = "c-batch-big-" + UUID.randomUUID();
        String[] orders = new String[101];
        for (int i = 0; i < orders.length; i++) {
            orders[i] = order(customer, null);
        }

        JsonNode problem = assertProblem(batch(orders), 413);

        assertTrue(problem.get("detail").asText().contains("at most 100 orders"), problem.toString());
        assertEquals(0, ordersOf(customer));
    }

    @Test
    void aQueuedMessageOfManyOrdersStoresTheGoodOnesAndDeadLettersTheBadOneAloneWithItsReason() throws Exception {
        String customer = "c-batch-jms-" + UUID.randomUUID();
        String marker = UUID.randomUUID().toString();
        String bad = "{\"customerId\":\"" + customer + "-bad\",\"workflow\":\"single-charge\",\"items\":[{\"sku\":\"A-1\",\"quantity\":0}]}";
        try (var factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext()) {
            TextMessage message = jms.createTextMessage("{\"orders\":[" + order(customer + "-0", null) + "," + bad + ","
                    + order(customer + "-2", "jms-" + customer) + "]}");
            message.setStringProperty("marker", marker);
            jms.createProducer().send(jms.createQueue("orders"), message);
        }

        TextMessage dead = DeadLetterQueue.await(marker);
        assertTrue(dead.getStringProperty("dlqReason").contains("quantity"), dead.getStringProperty("dlqReason"));
        assertEquals(1, dead.getIntProperty("dlqItemIndex"));
        assertEquals(bad, dead.getText().replace(" ", ""));
        for (String good : List.of("-0", "-2")) {
            api.awaitState(TestStack.awaitOrderOf(customer + good, Duration.ofSeconds(10)), PROCESSED, "Processed");
        }
        assertEquals(0, ordersOf(customer + "-bad"));
    }

    @Test
    void theLocalApiJoinsItsCallersTransaction() {
        String rolledBack = "c-local-undone-" + UUID.randomUUID();
        String committed = "c-local-done-" + UUID.randomUUID();

        List<String> undone = local(rolledBack, 2, true);
        List<String> done = local(committed, 2, false);

        assertEquals(2, undone.size(), undone.toString());
        assertEquals(0, ordersOf(rolledBack), "the caller rolled back: its orders with its work");
        assertEquals(0, TestStack.scalar("SELECT count(*) FROM submission_key WHERE idem_key LIKE ?", rolledBack + "%"));
        assertEquals(2, ordersOf(committed));
        for (String orderId : done) {
            assertFalse(orderId.startsWith("refused"), done.toString());
            api.awaitState(orderId, PROCESSED, "Processed");
        }
    }

    @Test
    void theOpenApiDocumentDescribesTheBatch() {
        Http.Reply document = Http.send(java.net.http.HttpRequest.newBuilder(root.resolve("/openapi"))
                .header("Accept", "application/json").GET());

        JsonNode openapi = document.json();
        List<String> paths = new ArrayList<>();
        openapi.get("paths").fieldNames().forEachRemaining(paths::add);
        JsonNode batch = openapi.get("paths").get(paths.stream().filter(p -> p.endsWith("/api/orders/batch")).findFirst()
                .orElseThrow(() -> new AssertionError("no batch path in " + paths)));
        assertTrue(batch.has("post"), batch.toString());
        assertEquals("#/components/schemas/OrderBatchAnswer",
                batch.at("/post/responses/200/content/application~1json/schema/$ref").asText(), batch.toString());
        assertEquals("#/components/responses/BatchTooLarge", batch.at("/post/responses/413/$ref").asText(), batch.toString());
        assertTrue(openapi.at("/components/schemas/OrderBatchResult/properties").has("problem"), document.body());
    }

    private Http.Reply batch(String... orders) {
        return Http.post(root.resolve("api/orders/batch"), "application/json",
                "{\"orders\":[" + String.join(",", orders) + "]}", api.credentials());
    }

    /** A one-step order for {@code customer}, with its own key if {@code key} is not null. */
    private static String order(String customer, String key) {
        return "{" + (key == null ? "" : "\"idempotencyKey\":\"" + key + "\",") + "\"customerId\":\"" + customer
                + "\",\"workflow\":\"single-charge\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]}";
    }

    private List<String> local(String customer, int count, boolean rollback) {
        Http.Reply reply = Http.post(root.resolve("it/local-orders?customer=" + URLEncoder.encode(customer, StandardCharsets.UTF_8)
                + "&count=" + count + "&rollback=" + rollback), "application/x-www-form-urlencoded", "");
        assertEquals(200, reply.status(), reply.body());
        return List.of(reply.body().strip().split("\n"));
    }

    private void awaitProcessed(JsonNode answer) {
        for (JsonNode result : answer.get("results")) {
            if (result.get("status").asInt() == 202) {
                api.awaitState(result.get("orderId").asText(), PROCESSED, "Processed");
            }
        }
    }

    private static List<Integer> statuses(JsonNode results) {
        List<Integer> statuses = new ArrayList<>();
        results.forEach(result -> statuses.add(result.get("status").asInt()));
        return statuses;
    }

    private static long ordersOf(String customer) {
        return TestStack.scalar("SELECT count(*) FROM customer_order WHERE customer_id = ?", customer);
    }
}
