package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class IdempotencyTest extends SimulatorTestSupport {

    @Test
    void firstApplyAnswersWithTheEffect() {
        HttpResponse<String> response = client.apply("charge-payment", "key-1", "order-1");

        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
        assertFalse(response.headers().firstValue("Idempotent-Replayed").isPresent());
        JsonNode effect = SimulatorClient.json(response);
        assertEquals("order-1", effect.get("orderId").asText());
        assertEquals("charge-payment", effect.get("operation").asText());
        assertEquals("key-1", effect.get("idempotencyKey").asText());
        assertEquals(36, effect.get("effectId").asText().length());
        Instant.parse(effect.get("appliedAt").asText());
    }

    @Test
    void replayReturnsTheFirstAnswerAndAppliesNothing() {
        HttpResponse<String> first = client.apply("charge-payment", "key-1", "order-1");
        HttpResponse<String> replay = client.apply("charge-payment", "key-1", "order-1");

        assertEquals(200, replay.statusCode());
        assertEquals(first.body(), replay.body());
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElse(null));
        JsonNode stats = client.stats();
        assertEquals(1, stats.get("applied").asLong());
        assertEquals(1, stats.get("replays").asLong());
        assertEquals(2, stats.get("requests").asLong());
        assertEquals(0, stats.get("appliedTwice").asLong());
    }

    @Test
    void differentKeysForTheSameOrderAndOperationCountAsAppliedTwice() {
        client.apply("charge-payment", "key-1", "order-1");
        client.apply("charge-payment", "key-2", "order-1");
        client.apply("reserve-inventory", "key-3", "order-1");
        client.apply("charge-payment", "key-4", "order-2");

        JsonNode stats = client.stats();
        assertEquals(4, stats.get("applied").asLong());
        assertEquals(1, stats.get("appliedTwice").asLong());
        assertEquals(3, stats.get("byOperation").get("charge-payment").asLong());
        assertEquals(1, stats.get("byOperation").get("reserve-inventory").asLong());
    }

    @Test
    void effectsAreListedInApplyOrderAndFilterByOrder() {
        client.apply("charge-payment", "key-1", "order-1");
        client.apply("charge-payment", "key-2", "order-2");
        client.apply("ship-order", "key-3", "order-1");

        JsonNode all = SimulatorClient.json(client.request("GET", "/effects"));
        assertEquals(List.of("key-1", "key-2", "key-3"), keys(all));
        JsonNode order1 = SimulatorClient.json(client.request("GET", "/effects?orderId=order-1"));
        assertEquals(List.of("key-1", "key-3"), keys(order1));
    }

    @Test
    void clearingEffectsEmptiesLedgerJournalAndCounters() throws Exception {
        client.apply("charge-payment", "key-1", "order-1");
        client.apply("charge-payment", "key-2", "order-1");

        assertEquals(204, client.request("DELETE", "/effects").statusCode());

        JsonNode stats = client.stats();
        assertEquals(0, stats.get("applied").asLong());
        assertEquals(0, stats.get("appliedTwice").asLong());
        assertEquals(0, stats.get("requests").asLong());
        assertEquals(0, Files.size(journal()));
        // The key is forgotten too: the same request now applies afresh.
        HttpResponse<String> again = client.apply("charge-payment", "key-1", "order-1");
        assertFalse(again.headers().firstValue("Idempotent-Replayed").isPresent());
        assertEquals(1, client.stats().get("applied").asLong());
    }

    @Test
    void concurrentRequestsWithOneKeyApplyOnce() throws Exception {
        int threads = 20;
        List<HttpResponse<String>> responses =
                race(threads, i -> client.apply("charge-payment", "same-key", "order-1"));

        Set<String> bodies = new HashSet<>();
        for (HttpResponse<String> response : responses) {
            assertEquals(200, response.statusCode());
            bodies.add(response.body());
        }
        assertEquals(1, bodies.size());
        JsonNode stats = client.stats();
        assertEquals(1, stats.get("applied").asLong());
        assertEquals(threads - 1, stats.get("replays").asLong());
        assertEquals(1, Files.readAllLines(journal()).size());
    }

    @Test
    void concurrentRequestsWithDistinctKeysAllApplyAndAllReachTheJournal() throws Exception {
        int threads = 40;
        race(threads, i -> client.apply("charge-payment", "key-" + i, "order-" + i));

        assertEquals(threads, client.stats().get("applied").asLong());
        assertEquals(threads, Files.readAllLines(journal()).size());
    }

    private static List<HttpResponse<String>> race(int threads, Call call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    go.await();
                    return call.send(index);
                }));
            }
            go.countDown();
            List<HttpResponse<String>> responses = new ArrayList<>();
            for (Future<HttpResponse<String>> future : futures) {
                responses.add(future.get());
            }
            return responses;
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> keys(JsonNode effects) {
        List<String> keys = new ArrayList<>();
        effects.forEach(effect -> keys.add(effect.get("idempotencyKey").asText()));
        return keys;
    }

    @FunctionalInterface
    private interface Call {
        HttpResponse<String> send(int index);
    }
}
