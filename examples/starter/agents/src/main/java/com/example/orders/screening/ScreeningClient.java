package com.example.orders.screening;

import jakarta.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The team's own client of its fraud-screening service: one screening per order, asked under the caller's
 * idempotency key so that asking twice screens once. It knows the service's protocol and nothing of Overseer:
 * it answers a {@link Verdict}, or fails with {@link ScreeningUnavailable} or {@link RequestRefused}.
 *
 * <p>(In this example the service is Overseer's remote-service simulator, which takes a POST to
 * {@code /operations/fraud-screening} and answers 200, or 422 for a rejected order, or 503 when it is
 * failing.)
 */
public final class ScreeningClient {

    /** The service's own name for a screening. */
    public static final String SCREENING = "fraud-screening";

    /** What the service decided. */
    public enum Verdict {
        CLEARED, REJECTED
    }

    /** The service could not give a verdict now: down, overloaded, slow, or the connection failed. */
    public static final class ScreeningUnavailable extends Exception {

        public ScreeningUnavailable(String message) {
            super(message);
        }
    }

    /** The service refused the request itself (a 4xx other than a rejection): asking again will not help. */
    public static final class RequestRefused extends Exception {

        public RequestRefused(String message) {
            super(message);
        }
    }

    private final HttpClient http;
    private final URI screenings;

    public ScreeningClient(URI baseUrl) {
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        this.screenings = URI.create(baseUrl.toString().replaceAll("/+$", "") + "/operations/" + SCREENING);
    }

    /**
     * Starts screening one order, at most {@code timeout}, under {@code idempotencyKey}. The verdict completes
     * the future; it fails with {@link ScreeningUnavailable} when the service gave none (worth asking again
     * later), or with {@link RequestRefused} when the service refused the request itself (a bug on our side or
     * theirs: asking again will not help). A screening can take long: the caller waits as it likes.
     */
    public CompletableFuture<Verdict> screen(String orderId, String customerId, String idempotencyKey, Duration timeout) {
        HttpRequest request = HttpRequest.newBuilder(screenings)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder()
                        .add("orderId", orderId).add("customerId", customerId).build().toString()))
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .handle((response, failure) -> {
                    if (failure != null) {
                        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                                ? failure.getCause() : failure;
                        throw new CompletionException(new ScreeningUnavailable(
                                cause.getClass().getSimpleName() + ": " + cause.getMessage()));
                    }
                    return verdict(response);
                });
    }

    private static Verdict verdict(HttpResponse<String> response) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return Verdict.CLEARED;
        }
        if (status == 422) {
            return Verdict.REJECTED;
        }
        if (status == 408 || status == 429 || status >= 500) {
            throw new CompletionException(new ScreeningUnavailable("screening answered " + status));
        }
        throw new CompletionException(new RequestRefused("screening refused the request: " + status + " " + response.body()));
    }
}
