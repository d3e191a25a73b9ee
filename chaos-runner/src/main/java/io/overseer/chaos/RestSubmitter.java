package io.overseer.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.chaos.History.Outcome;
import io.overseer.chaos.History.Submission;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * POST /api/orders as a careful client behind a health-checking load balancer ({@link Balancer}) would: the
 * Idempotency-Key on every try, the next instance in rotation after a refused connection, a timeout, a 5xx,
 * 408 or 429, until a deadline; then, if planned, the same request once more on purpose. Every answer that
 * names an order is recorded.
 */
final class RestSubmitter {

    static final Duration DEADLINE = Duration.ofSeconds(120);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AUTHORIZATION = "Basic "
            + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8));

    private final Balancer balancer;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();

    RestSubmitter(Balancer balancer) {
        this.balancer = balancer;
    }

    Submission submit(PlannedOrder order) throws InterruptedException {
        List<String> ids = new ArrayList<>();
        Answer first = untilAnswered(order, order.index());
        if (first.orderId != null) {
            ids.add(first.orderId);
        }
        boolean duplicateSent = false;
        if (first.outcome == Outcome.ACCEPTED && order.duplicate()) {
            Answer again = untilAnswered(order, order.index() + 1); // another instance, as a retry may reach
            duplicateSent = true;
            if (again.orderId != null) {
                ids.add(again.orderId);
            }
        }
        return new Submission(order.key(), order.customerId(), PlannedOrder.Channel.REST, first.outcome, ids,
                duplicateSent, first.lastError);
    }

    private record Answer(Outcome outcome, String orderId, String lastError) {
    }

    private Answer untilAnswered(PlannedOrder order, int firstInstance) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        String lastError = null;
        for (int attempt = 0; System.nanoTime() < deadline; attempt++) {
            String base = balancer.pick(firstInstance, attempt);
            long pause = Math.min(2000, 200L << Math.min(attempt, 4));
            try {
                HttpResponse<String> r = http.send(request(base, order), HttpResponse.BodyHandlers.ofString());
                int status = r.statusCode();
                if (status == 202) {
                    return new Answer(Outcome.ACCEPTED, JSON.readTree(r.body()).path("orderId").asText(null), null);
                }
                lastError = status + " " + abbreviate(r.body());
                if (status < 500 && status != 408 && status != 429) {
                    return new Answer(Outcome.REFUSED, null, lastError);
                }
                pause = Math.min(pause, r.headers().firstValue("Retry-After").map(RestSubmitter::millis).orElse(pause));
            } catch (IOException e) {
                lastError = e.getClass().getSimpleName() + " " + e.getMessage(); // refused, reset, timed out
            }
            Thread.sleep(pause);
        }
        return new Answer(Outcome.GAVE_UP, null, lastError);
    }

    private static HttpRequest request(String base, PlannedOrder order) {
        return HttpRequest.newBuilder(URI.create(base + "/api/orders")).timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json").header("Authorization", AUTHORIZATION)
                .header("Idempotency-Key", order.key())
                .POST(HttpRequest.BodyPublishers.ofString(OrderBody.json(order.customerId()))).build();
    }

    private static long millis(String retryAfterSeconds) {
        try {
            return Long.parseLong(retryAfterSeconds.trim()) * 1000;
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String abbreviate(String body) {
        return body == null ? "" : body.length() > 200 ? body.substring(0, 200) + "…" : body;
    }
}
