package io.overseer.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.chaos.History.Effect;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The simulator's own API: fault rules (PUT/DELETE /faults), its ledger (GET /effects) and GET /stats. */
final class SimulatorClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    SimulatorClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    void putFault(String operation, String mode, double rate, long latencyMs) throws IOException {
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("operation", operation);
        rule.put("mode", mode);
        rule.put("rate", rate);
        if (latencyMs > 0) {
            rule.put("latencyMs", latencyMs);
        }
        expect(200, send(request("/faults").PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(rule)))
                .header("Content-Type", "application/json")));
    }

    /** Clears every rule and releases the calls still hanging. */
    void clearFaults() throws IOException {
        expect(204, send(request("/faults").DELETE()));
    }

    long appliedTwice() throws IOException {
        return stats().path("appliedTwice").asLong();
    }

    /** Calls a fault rule has affected since the simulator started. */
    long faultsInjected() throws IOException {
        return stats().path("faultsInjected").asLong();
    }

    private JsonNode stats() throws IOException {
        return JSON.readTree(expect(200, send(request("/stats").GET())).body());
    }

    List<Effect> effects() throws IOException {
        HttpResponse<String> r = expect(200, send(request("/effects").GET()));
        List<Effect> effects = new ArrayList<>();
        for (JsonNode e : JSON.readTree(r.body())) {
            effects.add(new Effect(e.path("orderId").asText(), e.path("operation").asText(),
                    e.path("idempotencyKey").asText()));
        }
        return effects;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static HttpResponse<String> expect(int status, HttpResponse<String> r) throws IOException {
        if (r.statusCode() != status) {
            throw new IOException(r.request().method() + " " + r.uri() + " answered " + r.statusCode() + ": " + r.body());
        }
        return r;
    }
}
