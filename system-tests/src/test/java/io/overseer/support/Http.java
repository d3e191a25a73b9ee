package io.overseer.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** A small real HTTP client for tests: JSON in, JSON out, with or without HTTP Basic credentials. */
public final class Http {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private Http() {
    }

    /** HTTP Basic credentials; {@code null} where a method takes them means anonymous. */
    public record Credentials(String user, String password) {
        public String header() {
            return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        }
    }

    public record Reply(int status, String contentType, String location, String body, HttpHeaders headers) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("Not JSON (" + status + "): " + body, e);
            }
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    public static HttpClient client() {
        return CLIENT;
    }

    public static Reply get(URI uri) {
        return send(HttpRequest.newBuilder(uri).GET());
    }

    public static Reply get(URI uri, Credentials credentials) {
        return send(authorized(HttpRequest.newBuilder(uri).GET(), credentials));
    }

    public static Reply delete(URI uri) {
        return send(HttpRequest.newBuilder(uri).DELETE());
    }

    public static Reply post(URI uri, String contentType, String body) {
        return send(HttpRequest.newBuilder(uri).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    public static Reply post(URI uri, String contentType, String body, Credentials credentials) {
        return send(authorized(HttpRequest.newBuilder(uri).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)), credentials));
    }

    /** A JSON POST with HTTP Basic credentials. */
    public static Reply post(URI uri, String json, String user, String password) {
        return post(uri, "application/json", json, new Credentials(user, password));
    }

    public static Reply put(URI uri, String json) {
        return send(HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Adds the Authorization header unless the credentials are null (anonymous). */
    public static HttpRequest.Builder authorized(HttpRequest.Builder request, Credentials credentials) {
        return credentials == null ? request : request.header("Authorization", credentials.header());
    }

    public static Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().firstValue("Location").orElse(null),
                    response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
