package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FaultInjectionTest extends SimulatorTestSupport {

    @Test
    void errorAnswers503ProblemAndAppliesNothing() {
        setFault("{\"operation\":\"*\",\"mode\":\"error\"}");

        HttpResponse<String> response = client.apply("charge-payment", "key-1", "order-1");

        assertProblem(response, 503, "Service Unavailable");
        assertEquals(0, client.stats().get("applied").asLong());
        assertEquals(1, client.stats().get("faultsInjected").asLong());
    }

    @Test
    void fatalAnswers422ProblemAndAppliesNothing() {
        setFault("{\"operation\":\"charge-payment\",\"mode\":\"fatal\"}");

        assertProblem(client.apply("charge-payment", "key-1", "order-1"), 422, "Unprocessable");
        assertEquals(0, client.stats().get("applied").asLong());
        // Other operations are untouched by a named rule.
        assertEquals(200, client.apply("reserve-inventory", "key-2", "order-1").statusCode());
    }

    @Test
    void hangNeverAnswersAppliesNothingAndClearingFaultsRecovers() throws Exception {
        setFault("{\"operation\":\"*\",\"mode\":\"hang\"}");
        HttpRequest hanging = client.operationRequest("/operations/charge-payment", "key-1",
                "{\"orderId\":\"order-1\"}", Duration.ofSeconds(30));
        CompletableFuture<HttpResponse<String>> call = CompletableFuture.supplyAsync(() -> client.send(hanging));
        awaitHeld();
        // A hang parks one handler thread; everything else is still served meanwhile.
        assertEquals(200, client.request("GET", "/health").statusCode());
        assertEquals(0, client.stats().get("applied").asLong());

        assertEquals(204, client.request("DELETE", "/faults").statusCode());
        // Clearing lets the held request go, and it ends without any answer: its connection is closed.
        ExecutionException unanswered = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
        assertTrue(unanswered.getCause().getCause() instanceof IOException, unanswered.toString());
        HttpResponse<String> retry = client.apply("charge-payment", "key-1", "order-1");
        assertEquals(200, retry.statusCode());
        assertEquals(1, client.stats().get("applied").asLong());
    }

    @Test
    void latencyDelaysTheAnswerButApplies() {
        setFault("{\"operation\":\"*\",\"mode\":\"latency\",\"latencyMs\":300}");

        long started = System.nanoTime();
        HttpResponse<String> response = client.apply("charge-payment", "key-1", "order-1");
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;

        assertEquals(200, response.statusCode());
        assertTrue(elapsedMs >= 300, "answered after " + elapsedMs + " ms");
        assertEquals(1, client.stats().get("applied").asLong());
    }

    @Test
    void rateZeroNeverAffects() {
        setFault("{\"operation\":\"*\",\"mode\":\"error\",\"rate\":0.0}");

        for (int i = 0; i < 25; i++) {
            assertEquals(200, client.apply("charge-payment", "key-" + i, "order-" + i).statusCode());
        }
        assertEquals(25, client.stats().get("applied").asLong());
        assertEquals(0, client.stats().get("faultsInjected").asLong());
    }

    @Test
    void replaysSufferFaultsToo() {
        HttpResponse<String> first = client.apply("charge-payment", "key-1", "order-1");
        setFault("{\"operation\":\"*\",\"mode\":\"error\"}");

        assertProblem(client.apply("charge-payment", "key-1", "order-1"), 503, "Service Unavailable");

        client.request("DELETE", "/faults");
        assertEquals(first.body(), client.apply("charge-payment", "key-1", "order-1").body());
        assertEquals(1, client.stats().get("applied").asLong());
    }

    @Test
    void aRefusalNeverMeetsTheRepeatOfAnAppliedKeyWhichGetsItsFirstAnswer() {
        HttpResponse<String> first = client.apply("charge-payment", "key-1", "order-1");
        setFault("{\"operation\":\"charge-payment\",\"mode\":\"fatal\"}");

        HttpResponse<String> repeat = client.apply("charge-payment", "key-1", "order-1");
        assertEquals(200, repeat.statusCode(), repeat.body());
        assertEquals(first.body(), repeat.body());
        assertProblem(client.apply("charge-payment", "key-2", "order-2"), 422, "Unprocessable");
        assertEquals(1, client.stats().get("applied").asLong());
    }

    @Test
    void namedRuleShieldsItsOperationFromTheWildcard() {
        setFault("{\"operation\":\"*\",\"mode\":\"error\"}");
        setFault("{\"operation\":\"charge-payment\",\"mode\":\"none\"}");

        assertEquals(200, client.apply("charge-payment", "key-1", "order-1").statusCode());
        assertEquals(503, client.apply("reserve-inventory", "key-2", "order-1").statusCode());
    }

    @Test
    void putReplacesTheRuleForAnOperationAndListsAllRules() {
        setFault("{\"operation\":\"charge-payment\",\"mode\":\"error\"}");
        HttpResponse<String> response = client.putFault(
                "{\"operation\":\"charge-payment\",\"mode\":\"latency\",\"rate\":0.5,\"latencyMs\":10}");

        JsonNode rules = SimulatorClient.json(response);
        assertEquals(1, rules.size());
        assertEquals("latency", rules.get(0).get("mode").asText());
        assertEquals(0.5, rules.get(0).get("rate").asDouble());
        assertEquals(10, rules.get(0).get("latencyMs").asLong());
        assertEquals(rules, SimulatorClient.json(client.request("GET", "/faults")));

        assertEquals(204, client.request("DELETE", "/faults").statusCode());
        assertEquals(0, SimulatorClient.json(client.request("GET", "/faults")).size());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "{not json",
        "{\"mode\":\"error\"}",
        "{\"operation\":\"Charge Payment\",\"mode\":\"error\"}",
        "{\"operation\":\"*\"}",
        "{\"operation\":\"*\",\"mode\":\"explode\"}",
        "{\"operation\":\"*\",\"mode\":\"error\",\"rate\":1.5}",
        "{\"operation\":\"*\",\"mode\":\"error\",\"rate\":-0.1}",
        "{\"operation\":\"*\",\"mode\":\"latency\",\"latencyMs\":-1}",
        "{\"operation\":\"*\",\"mode\":\"latency\",\"latency_ms\":100}"
    })
    void invalidRulesAreRejectedAndChangeNothing(String body) {
        HttpResponse<String> response = client.putFault(body);

        assertProblem(response, 400, "Bad Request");
        assertEquals(0, SimulatorClient.json(client.request("GET", "/faults")).size());
    }

    private void setFault(String json) {
        HttpResponse<String> response = client.putFault(json);
        assertEquals(200, response.statusCode(), response.body());
    }

    static void assertProblem(HttpResponse<String> response, int status, String title) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(null));
        JsonNode problem = SimulatorClient.json(response);
        assertEquals(status, problem.get("status").asInt());
        assertEquals(title, problem.get("title").asText());
        assertTrue(problem.hasNonNull("type"));
        assertTrue(problem.hasNonNull("detail"));
    }
}
