package io.overseer.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The remote-service simulator's control API. */
public final class SimulatorApi {

    /**
     * One operation call as the simulator received it; {@code traceparent}, {@code traceId} and
     * {@code parentSpanId} are null when the call carried no well-formed W3C traceparent.
     */
    public record TracedCall(String operation, String idempotencyKey, Instant arrivedAt, String traceparent,
                             String traceId, String parentSpanId) {
    }

    private final URI base;

    public SimulatorApi(URI base) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
    }

    public void fault(String operation, String mode, double rate, long latencyMs) {
        Http.Reply reply = Http.put(base.resolve("faults"), "{\"operation\":\"" + operation + "\",\"mode\":\"" + mode
                + "\",\"rate\":" + rate + ",\"latencyMs\":" + latencyMs + "}");
        assertEquals(200, reply.status(), reply.body());
    }

    public void clearFaults() {
        Http.Reply reply = Http.delete(base.resolve("faults"));
        assertEquals(204, reply.status(), reply.body());
    }

    /** Per operation: calls started, most in flight at once, most started in one calendar second. */
    public JsonNode traffic() {
        return Http.get(base.resolve("traffic")).json();
    }

    public void clearTraffic() {
        Http.Reply reply = Http.delete(base.resolve("traffic"));
        assertEquals(204, reply.status(), reply.body());
    }

    public JsonNode stats() {
        return Http.get(base.resolve("stats")).json();
    }

    /** Every effect in the ledger, in the order applied (every test's of this run). */
    public JsonNode effects() {
        return Http.get(base.resolve("effects")).json();
    }

    /** Effects applied for one order. */
    public JsonNode effects(String orderId) {
        return Http.get(base.resolve("effects?orderId=" + orderId)).json();
    }

    /** The operations of the effects applied for one order, in the order applied. */
    public List<String> operations(String orderId) {
        List<String> operations = new ArrayList<>();
        effects(orderId).forEach(effect -> operations.add(effect.get("operation").asText()));
        return operations;
    }

    /**
     * The operation calls the simulator received for one order, faulted and replayed ones included, in
     * arrival order, with the trace context each carried (it keeps an order's last 64 calls).
     */
    public List<TracedCall> traceCalls(String orderId) {
        Http.Reply reply = Http.get(base.resolve("traces?orderId=" + URLEncoder.encode(orderId, StandardCharsets.UTF_8)));
        assertEquals(200, reply.status(), reply.body());
        List<TracedCall> calls = new ArrayList<>();
        for (JsonNode call : reply.json().get("calls")) {
            calls.add(new TracedCall(call.get("operation").asText(), call.get("idempotencyKey").asText(),
                    Instant.parse(call.get("arrivedAt").asText()), textOrNull(call, "traceparent"),
                    textOrNull(call, "traceId"), textOrNull(call, "parentSpanId")));
        }
        return calls;
    }

    private static String textOrNull(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
