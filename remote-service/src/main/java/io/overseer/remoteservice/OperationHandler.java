package io.overseer.remoteservice;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.DateTimeException;
import java.time.Instant;

/**
 * {@code POST /operations/{operation}}: validate, suffer the configured fault, then apply or replay.
 * Faults come before the idempotency lookup so that replays are just as unreliable as first attempts.
 */
final class OperationHandler {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String COMPLETE_BY = "X-Complete-By";
    static final String REPLAYED = "Idempotent-Replayed";
    private static final int MAX_KEY_LENGTH = 200;
    private static final System.Logger LOG = System.getLogger(OperationHandler.class.getName());

    private final EffectLedger ledger;
    private final FaultInjector faults;
    private final HangHolder hangs;
    private final RequestCounters counters;

    OperationHandler(EffectLedger ledger, FaultInjector faults, HangHolder hangs, RequestCounters counters) {
        this.ledger = ledger;
        this.faults = faults;
        this.hangs = hangs;
        this.counters = counters;
    }

    void handle(HttpExchange exchange, String operation) throws IOException {
        long started = System.nanoTime();
        counters.request();
        if (!FaultRule.OPERATION_NAME.matcher(operation).matches()) {
            throw ProblemException.badRequest("Operation name must match [a-z0-9-]{1,64}");
        }
        counters.traffic().enter(operation);
        try {
            perform(exchange, operation);
        } finally {
            counters.traffic().leave(operation);
            // The service's own time: an answer is written by now; a refusal is decided (its problem
            // body is written just after, by the routes), a hang has been released.
            counters.serviceTimes().record(operation, System.nanoTime() - started);
        }
    }

    private void perform(HttpExchange exchange, String operation) throws IOException {
        String key = idempotencyKey(exchange);
        OperationRequest request = body(exchange);
        logDeadline(exchange, operation, key);
        // Before the fault: a refused or hanging call still carried its client span.
        counters.traces().record(request.orderId(), operation, key,
                TraceParent.fromHeaders(exchange.getRequestHeaders().get(TraceParent.HEADER)));
        FaultRule fault = faults.draw(operation).orElse(null);
        // A refusal is a business answer: a service that applied a request under this key does not refuse
        // its repeat, it answers with what it did (the key's whole point). Transient faults — 503, latency,
        // a hang — may meet a repeat like any request. Refusing it would tell the caller "not applied"
        // about an effect that was: the chaos suite caught an agent's redelivered request refused so.
        if (fault != null && fault.mode() == FaultMode.FATAL && ledger.holds(key)) {
            fault = null;
        }
        if (fault != null && suffer(exchange, fault, operation)) {
            return;
        }
        ApplyResult result = ledger.apply(key, request.orderId(), operation);
        if (result.replayed()) {
            counters.replay();
            exchange.getResponseHeaders().set(REPLAYED, "true");
        }
        Exchanges.sendJson(exchange, 200, result.effect());
    }

    /** Returns true when the fault has consumed the exchange; otherwise the request proceeds. */
    private boolean suffer(HttpExchange exchange, FaultRule fault, String operation) {
        counters.faultInjected();
        switch (fault.mode()) {
            case LATENCY -> pause(fault.latencyMs());
            // A refusal may come late too (latencyMs): a service that thinks before it says no.
            case ERROR -> {
                pause(fault.latencyMs());
                throw ProblemException.serviceUnavailable("Injected transient fault for " + operation + "; nothing was applied");
            }
            case FATAL -> {
                pause(fault.latencyMs());
                throw ProblemException.unprocessable("Injected nontransient fault for " + operation + "; nothing was applied");
            }
            case HANG -> {
                hangs.hold(exchange);
                return true;
            }
            case NONE -> {
                // Never drawn; listed so a new mode cannot be forgotten here.
            }
        }
        return false;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ProblemException.serviceUnavailable("Simulator is shutting down");
        }
    }

    private static String idempotencyKey(HttpExchange exchange) {
        String key = exchange.getRequestHeaders().getFirst(IDEMPOTENCY_KEY);
        if (key == null || key.isBlank() || key.length() > MAX_KEY_LENGTH) {
            throw ProblemException.badRequest("Header " + IDEMPOTENCY_KEY + " is required (1-"
                    + MAX_KEY_LENGTH + " characters)");
        }
        return key;
    }

    private static OperationRequest body(HttpExchange exchange) throws IOException {
        byte[] bytes = Exchanges.readBody(exchange);
        OperationRequest request;
        try {
            request = bytes.length == 0 ? null : Json.MAPPER.readValue(bytes, OperationRequest.class);
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest("Body is not a valid JSON object: " + e.getOriginalMessage());
        }
        if (request == null || request.orderId() == null || request.orderId().isBlank()) {
            throw ProblemException.badRequest("Body must be a JSON object with a non-blank orderId");
        }
        return request;
    }

    // The deadline is informational: a late request is still served, as a real service would.
    private static void logDeadline(HttpExchange exchange, String operation, String key) {
        String completeBy = exchange.getRequestHeaders().getFirst(COMPLETE_BY);
        if (completeBy == null) {
            return;
        }
        try {
            Instant deadline = Instant.parse(completeBy);
            Level level = deadline.isBefore(Instant.now()) ? Level.INFO : Level.DEBUG;
            LOG.log(level, "{0} key {1} to complete by {2}", operation, key, deadline);
        } catch (DateTimeException e) {
            LOG.log(Level.INFO, "{0} key {1} has an unreadable {2}: {3}", operation, key, COMPLETE_BY, completeBy);
        }
    }
}
