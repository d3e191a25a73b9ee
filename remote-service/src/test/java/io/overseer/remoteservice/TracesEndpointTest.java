package io.overseer.remoteservice;

import static io.overseer.remoteservice.FaultInjectionTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TracesEndpointTest extends SimulatorTestSupport {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String MARKER = "not-a-trace";

    @Test
    void anOrdersCallsAreListedInArrivalOrderWithTheirTraceFaultedAndReplayedIncluded() {
        Instant before = Instant.now();
        assertEquals(200, client.putFault("{\"operation\":\"charge-payment\",\"mode\":\"error\"}").statusCode());
        assertEquals(503, call("charge-payment", "order-1", traceparent("00000000000000a1")).statusCode());
        assertEquals(204, client.request("DELETE", "/faults").statusCode());
        assertEquals(200, call("charge-payment", "order-1", traceparent("00000000000000a2")).statusCode());
        HttpResponse<String> replay = call("charge-payment", "order-1", traceparent("00000000000000a3"));
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElse(null));
        call("charge-payment", "order-2", traceparent("00000000000000b1"));
        call("ship-order", "order-1", traceparent("00000000000000a4"));
        Instant after = Instant.now();

        HttpResponse<String> response = client.request("GET", "/traces?orderId=order-1");

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(null));
        JsonNode body = SimulatorClient.json(response);
        assertEquals("order-1", body.get("orderId").asText());
        assertEquals(0, body.get("dropped").asLong());
        JsonNode calls = body.get("calls");
        assertEquals(List.of("00000000000000a1", "00000000000000a2", "00000000000000a3", "00000000000000a4"),
                texts(calls, "parentSpanId"));
        assertEquals(List.of("charge-payment", "charge-payment", "charge-payment", "ship-order"),
                texts(calls, "operation"));
        JsonNode last = calls.get(3);
        assertEquals("order-1:ship-order", last.get("idempotencyKey").asText());
        assertEquals(traceparent("00000000000000a4"), last.get("traceparent").asText());
        assertEquals(TRACE_ID, last.get("traceId").asText());
        Instant arrived = Instant.parse(last.get("arrivedAt").asText());
        assertFalse(arrived.isBefore(before) || arrived.isAfter(after), arrived + " outside " + before + ".." + after);
    }

    @Test
    void anAbsentMalformedOversizedOrRepeatedTraceparentIsNullAndNeverEchoed() {
        call("ship-order", "order-1", null);
        call("ship-order", "order-1", MARKER);
        call("ship-order", "order-1", traceparent("00000000000000a1").toUpperCase());
        call("ship-order", "order-1", MARKER.repeat(1_000));
        HttpRequest repeated = operation("ship-order", "order-1")
                .header("traceparent", traceparent("00000000000000a1"))
                .header("traceparent", traceparent("00000000000000a2")).build();
        assertEquals(200, client.send(repeated).statusCode());

        HttpResponse<String> response = client.request("GET", "/traces?orderId=order-1");

        JsonNode calls = SimulatorClient.json(response).get("calls");
        assertEquals(5, calls.size(), response.body());
        for (JsonNode call : calls) {
            assertTrue(call.get("traceparent").isNull(), call.toString());
            assertTrue(call.get("traceId").isNull(), call.toString());
            assertTrue(call.get("parentSpanId").isNull(), call.toString());
        }
        assertFalse(response.body().contains(MARKER), response.body());
    }

    @Test
    void anOrderNeverCalledHasNoCalls() {
        call("ship-order", "order-1", traceparent("00000000000000a1"));

        JsonNode body = SimulatorClient.json(client.request("GET", "/traces?orderId=order-9"));

        assertEquals("order-9", body.get("orderId").asText());
        assertEquals(0, body.get("calls").size());
    }

    @Test
    void requestsRefusedAsInvalidAreNotCalls() {
        client.post("/operations/ship-order", null, "{\"orderId\":\"order-1\"}");

        assertEquals(0, SimulatorClient.json(client.request("GET", "/traces?orderId=order-1")).get("calls").size());
    }

    @Test
    void clearingEffectsClearsTheTraces() {
        call("ship-order", "order-1", traceparent("00000000000000a1"));

        assertEquals(204, client.request("DELETE", "/effects").statusCode());

        assertEquals(0, SimulatorClient.json(client.request("GET", "/traces?orderId=order-1")).get("calls").size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/traces", "/traces?orderId=", "/traces?orderId=%20", "/traces?order=order-1"})
    void aMissingOrMalformedOrderIdAnswers400Problem(String path) {
        assertProblem(client.request("GET", path), 400, "Bad Request");
    }

    @Test
    void anOrderIdLongerThanTheAgentsCanBeAnswers400Problem() {
        String longest = "o".repeat(CallTraces.MAX_ORDER_ID_LENGTH);

        assertEquals(200, client.request("GET", "/traces?orderId=" + longest).statusCode());
        assertProblem(client.request("GET", "/traces?orderId=" + longest + "o"), 400, "Bad Request");
    }

    @Test
    void onlyGetIsAllowed() {
        HttpResponse<String> response = client.request("DELETE", "/traces");

        assertProblem(response, 405, "Method Not Allowed");
        assertEquals("GET", response.headers().firstValue("Allow").orElse(null));
    }

    private HttpResponse<String> call(String operation, String orderId, String traceparentOrNull) {
        HttpRequest.Builder request = operation(operation, orderId);
        if (traceparentOrNull != null) {
            request.header("traceparent", traceparentOrNull);
        }
        return client.send(request.build());
    }

    private HttpRequest.Builder operation(String operation, String orderId) {
        return HttpRequest.newBuilder(simulator.baseUri().resolve("/operations/" + operation))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", orderId + ":" + operation)
                .POST(HttpRequest.BodyPublishers.ofString("{\"orderId\":\"" + orderId + "\"}"));
    }

    private static String traceparent(String spanId) {
        return "00-" + TRACE_ID + "-" + spanId + "-01";
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.get(field).asText()));
        return texts;
    }
}
