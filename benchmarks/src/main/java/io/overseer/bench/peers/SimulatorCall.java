package io.overseer.bench.peers;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One {@code POST /operations/charge-payment} per task, in the format the simulator's OperationHandler
 * validates: an {@code Idempotency-Key} header and a JSON body with a non-blank orderId and an opaque
 * payload. Keys carry a per-run prefix because the simulator keeps its ledger across runs, and a
 * repeated key would be answered from the ledger (cheaper) instead of applied.
 */
final class SimulatorCall implements Work {

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final URI uri;
    private final String runPrefix;

    SimulatorCall(String simulatorBaseUrl, String runPrefix) {
        String base = simulatorBaseUrl.endsWith("/") ? simulatorBaseUrl.substring(0, simulatorBaseUrl.length() - 1)
                : simulatorBaseUrl;
        this.uri = URI.create(base + "/operations/charge-payment");
        this.runPrefix = runPrefix;
    }

    @Override
    public void perform(String taskId) throws Exception {
        String orderId = runPrefix + "-" + taskId;
        String body = "{\"orderId\":\"" + orderId + "\",\"payload\":{\"customerId\":\"c\","
                + "\"lines\":[{\"sku\":\"A\",\"quantity\":1}]}}";
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(30))
                .header("Idempotency-Key", orderId)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("Simulator answered " + response.statusCode() + " for " + orderId
                    + ": " + response.body());
        }
        if (response.headers().firstValue("Idempotent-Replayed").isPresent()) {
            // A replay is not the work we mean to measure: the key must be new.
            throw new IllegalStateException("Simulator replayed key " + orderId + " instead of applying it");
        }
    }

    @Override
    public String name() {
        return "http";
    }

    /** Fails fast, before any timing, when the simulator is not there. */
    void checkReachable() {
        try {
            perform("probe");
        } catch (Exception e) {
            throw new IllegalStateException("The simulator at " + uri + " does not answer as expected: " + e, e);
        }
    }
}
