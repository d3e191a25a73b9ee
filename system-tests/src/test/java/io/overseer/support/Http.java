package io.overseer.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small real HTTP client for tests: JSON in, JSON out. */
public final class Http {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private Http() {
    }

    public record Reply(int status, String contentType, String location, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("Not JSON (" + status + "): " + body, e);
            }
        }
    }

    public static Reply get(URI uri) {
        return send(HttpRequest.newBuilder(uri).GET());
    }

    public static Reply delete(URI uri) {
        return send(HttpRequest.newBuilder(uri).DELETE());
    }

    public static Reply post(URI uri, String contentType, String body) {
        return send(HttpRequest.newBuilder(uri).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A POST with HTTP Basic credentials. */
    public static Reply post(URI uri, String json, String user, String password) {
        String token = java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return send(HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                .header("Authorization", "Basic " + token).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public static Reply put(URI uri, String json) {
        return send(HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    private static Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().firstValue("Location").orElse(null),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
