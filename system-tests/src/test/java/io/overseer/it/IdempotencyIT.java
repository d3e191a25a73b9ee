package io.overseer.it;

import io.overseer.support.Poll;
import static io.overseer.support.Problems.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.TestStack;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The Idempotency-Key header of POST /api/orders: a retry gets the first answer and creates nothing, the
 * key with another body is a 422, keys belong to their caller, concurrent retries create exactly one
 * order, and keys past their retention are purged.
 */
class IdempotencyIT extends DeployedWarIT {

    @Test
    void aRetryGetsTheFirstAnswerAndCreatesNothing() {
        String customer = "c-idem-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();

        Http.Reply first = submit(api, key, OrdersApi.order(customer, "A-1", 2));
        Http.Reply retry = submit(api, key, OrdersApi.order(customer, "A-1", 2));
        // Same order, other spacing: the fingerprint is of the request, not of its bytes.
        Http.Reply respaced = submit(api, key, "{ \"items\": [ {\"quantity\": 2, \"sku\": \"A-1\"} ], \"customerId\": \""
                + customer + "\", \"workflow\": \"order\" }");

        assertEquals(202, first.status(), first.body());
        assertNull(first.header("Idempotency-Replayed"));
        for (Http.Reply again : List.of(retry, respaced)) {
            assertEquals(202, again.status(), again.body());
            assertEquals(first.body(), again.body());
            assertEquals(first.location(), again.location());
            assertEquals("true", again.header("Idempotency-Replayed"));
        }
        assertEquals(1, ordersOf(customer));
    }

    @Test
    void theKeyWithAnotherBodyIs422AndWritesNothing() {
        String customer = "c-idem-diff-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        assertEquals(202, submit(api, key, OrdersApi.order(customer, "A-1", 2)).status());

        assertProblem(submit(api, key, OrdersApi.order(customer, "A-1", 3)), 422);

        assertEquals(1, ordersOf(customer));
    }

    @Test
    void keysBelongToTheirCaller() {
        String customer = "c-idem-scope-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();

        Http.Reply mine = submit(api, key, OrdersApi.order(customer, "A-1", 1));
        Http.Reply theirs = submit(api.as(TestStack.credentials(TestStack.SUBMITTER)), key, OrdersApi.order(customer, "A-1", 1));

        assertEquals(202, theirs.status(), theirs.body());
        assertNotEquals(mine.json().get("orderId"), theirs.json().get("orderId"));
        assertEquals(2, ordersOf(customer));
    }

    @Test
    void concurrentRetriesCreateExactlyOneOrder() throws Exception {
        String customer = "c-idem-race-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        int clients = 16;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Http.Reply>> replies = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Callable<Http.Reply> call = () -> {
                    start.await();
                    return submit(api, key, OrdersApi.order(customer, "A-1", 1));
                };
                replies.add(pool.submit(call));
            }
            start.countDown();
            Set<String> ids = new HashSet<>();
            for (Future<Http.Reply> reply : replies) {
                assertEquals(202, reply.get().status(), reply.get().body());
                ids.add(reply.get().json().get("orderId").asText());
            }
            assertEquals(1, ids.size(), "every retry answered with one order: " + ids);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, ordersOf(customer));
        assertEquals("Processed", api.awaitState(TestStack.awaitOrderOf(customer, Duration.ofSeconds(5)),
                Duration.ofSeconds(60), "Processed").get("processState").asText());
    }

    @Test
    void keysPastTheirRetentionArePurged() throws Exception {
        String orderId = api.submit("c-idem-old-" + UUID.randomUUID());
        String key = "old-" + UUID.randomUUID();
        try (Connection db = TestStack.db(); PreparedStatement insert = db.prepareStatement(
                "INSERT INTO submission_key (scope, idem_key, fingerprint, order_id, created_at)"
                        + " VALUES ('http:test', ?, repeat('0', 64), ?, now() - interval '3 days')")) {
            insert.setString(1, key);
            insert.setString(2, orderId);
            insert.executeUpdate();
        }
        // The purge runs once a minute on whichever instance holds its lease.
        Poll.until("a key three days old to be forgotten", Duration.ofSeconds(90), Duration.ofSeconds(1),
                () -> keyCount(key), count -> count == 0);
    }

    private static Http.Reply submit(OrdersApi as, String key, String body) {
        return Http.send(Http.authorized(HttpRequest.newBuilder(as.base().resolve("api/orders"))
                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body)), as.credentials()));
    }

    private static long ordersOf(String customer) {
        return TestStack.scalar("SELECT count(*) FROM customer_order WHERE customer_id = ?", customer);
    }

    private static long keyCount(String key) {
        return TestStack.scalar("SELECT count(*) FROM submission_key WHERE idem_key = ?", key);
    }
}
