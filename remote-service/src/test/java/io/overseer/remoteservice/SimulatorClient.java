package io.overseer.remoteservice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain java.net.http client for the simulator's API, as the application's agents would use it. */
final class SimulatorClient {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final URI base;

    SimulatorClient(URI base) {
        this.base = base;
    }

    HttpResponse<String> apply(String operation, String key, String orderId) {
        return post("/operations/" + operation, key, "{\"orderId\":\"" + orderId + "\",\"payload\":{\"amount\":42}}");
    }

    HttpResponse<String> post(String path, String keyOrNull, String body) {
        return send(operationRequest(path, keyOrNull, body, DEFAULT_TIMEOUT));
    }

    HttpRequest operationRequest(String path, String keyOrNull, String body, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (keyOrNull != null) {
            builder.header("Idempotency-Key", keyOrNull);
        }
        return builder.build();
    }

    HttpResponse<String> putFault(String json) {
        return send(HttpRequest.newBuilder(base.resolve("/faults")).timeout(DEFAULT_TIMEOUT)
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    HttpResponse<String> request(String method, String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).timeout(DEFAULT_TIMEOUT)
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }

    JsonNode stats() {
        return json(request("GET", "/stats"));
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return sendOrThrow(request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    HttpResponse<String> sendOrThrow(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
