package io.overseer.agent;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import io.overseer.platform.Json;
import io.overseer.platform.TraceParent;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The generic HTTP agent: a remote service configured rather than coded. Each call is a
 * {@code POST} of {@code {"orderId", "payload": {"customerId", "lines"}}} to the service's URL (with
 * {@code {operation}} replaced by the operation's name), carrying the attempt's
 * {@code Idempotency-Key} and its deadline as {@code X-Complete-By}; the request timeout is what is
 * left of the deadline. Answers are classified per operation ({@link StatusClassification}). See
 * {@link HttpServiceConfig} for the configuration keys.
 */
public final class HttpRemoteService implements RemoteService {

    /**
     * One client for every configured service: it pools connections per host. Its work after the request
     * is sent runs on its selector thread, not handed to a worker pool: the calls are synchronous and their
     * answers are read whole ({@code ofString}), so nothing a worker would run can block, and a call is
     * not handed to another thread to be completed (the default pool also kept about 50 worker threads).
     */
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .executor(Runnable::run)
            .build();

    private final String name;
    private final String url;
    private final Set<String> operations;
    private final Function<String, StatusClassification> classification;
    private final Map<String, StatusClassification> classifications = new ConcurrentHashMap<>();

    /**
     * @param operations     the operations it performs; empty for "every operation no other service claims"
     * @param classification the classification of each operation's answers
     */
    public HttpRemoteService(String name, String url, Set<String> operations,
            Function<String, StatusClassification> classification) {
        this.name = name;
        this.url = url;
        this.operations = Set.copyOf(operations);
        this.classification = classification;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean performs(String operation) {
        return operations.contains(operation);
    }

    /** Whether it takes every operation that no other service claims. */
    public boolean isCatchAll() {
        return operations.isEmpty();
    }

    /** How the answers of {@code operation} are classified. */
    public StatusClassification classificationOf(String operation) {
        return classifications.computeIfAbsent(operation, classification);
    }

    URI uri(String operation) {
        return URI.create(url.replace("{operation}", operation));
    }

    /**
     * What the service is sent: the order's customer and lines, and the bodies of the external events the
     * order received so far ({@code events}, by name), when there are any.
     */
    private static Map<String, Object> payload(AgentRequest request) {
        Map<String, Object> payload = new java.util.LinkedHashMap<>();
        payload.put("customerId", request.customerId());
        payload.put("lines", request.lines());
        if (request.events() != null && !request.events().isEmpty()) {
            Map<String, jakarta.json.JsonObject> events = new java.util.TreeMap<>();
            request.events().forEach((name, body) -> {
                try (var reader = jakarta.json.Json.createReader(new java.io.StringReader(body))) {
                    events.put(name, reader.readObject());
                }
            });
            payload.put("events", events);
        }
        return payload;
    }

    /**
     * The call carries the current span's W3C trace context (the agent's call span, {@link AttemptRunner}) as
     * {@code traceparent}, so that the service's own spans join the order's trace; nothing when not traced.
     */
    @Override
    public CallResult call(AgentRequest request, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(request.operation()));
        if (Span.current().getSpanContext().isValid()) {
            TraceParent.headers(Context.current()).forEach(builder::header);
        }
        HttpRequest httpRequest = builder
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", request.idempotencyKey())
                .header("X-Complete-By", request.completeBy().toInstant().toString())
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of(
                        "orderId", request.orderId(),
                        "payload", payload(request)))))
                .build();
        try {
            HttpResponse<String> response = HTTP.send(httpRequest, HttpResponse.BodyHandlers.ofString());
            return classificationOf(request.operation()).classify(response.statusCode(), response.body());
        } catch (IOException e) {
            return CallResult.transientFault(e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CallResult.transientFault("interrupted");
        }
    }

    @Override
    public String toString() {
        return name + " (" + url + ", " + (isCatchAll() ? "every other operation" : String.join(", ", operations)) + ")";
    }
}
