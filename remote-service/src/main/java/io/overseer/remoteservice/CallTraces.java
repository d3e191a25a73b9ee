package io.overseer.remoteservice;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per order, the operation calls that reached the service and the trace context each arrived with
 * ({@code GET /traces?orderId=}), so a test can check that every call of its order carried the agent's
 * client span. Faulted calls and replays count too: each is a call the client made.
 *
 * <p>The simulator's other per-call bookkeeping is aggregates (counts, histograms); this is the one
 * record per call, so it is bounded twice: the last {@link #MAX_CALLS_PER_ORDER} calls of an order (the
 * older ones are counted as dropped), and {@link #MAX_CALLS} in all, past which the order least recently
 * called is forgotten whole. Every field is bounded (key 200, operation 64, order id 200 characters; a
 * traceparent 55 or none), so the worst case is about half a KB per call, 10 MB in all. In memory,
 * cleared with the counters by {@code DELETE /effects}.
 */
final class CallTraces {

    static final int MAX_CALLS_PER_ORDER = 64;
    static final int MAX_CALLS = 20_000;
    static final int MAX_ORDER_ID_LENGTH = 200;

    /** One call as {@code GET /traces} shows it; {@code traceparent} is null when absent or invalid. */
    @JsonPropertyOrder({"operation", "idempotencyKey", "arrivedAt", "traceparent", "traceId", "parentSpanId"})
    record Call(String operation, String idempotencyKey, Instant arrivedAt, String traceparent) {

        @JsonProperty
        String traceId() {
            return traceparent == null ? null : new TraceParent(traceparent).traceId();
        }

        @JsonProperty
        String parentSpanId() {
            return traceparent == null ? null : new TraceParent(traceparent).parentSpanId();
        }
    }

    /** Body of {@code GET /traces}: the order's calls held, in arrival order, and how many were dropped. */
    @JsonPropertyOrder({"orderId", "dropped", "calls"})
    record View(String orderId, long dropped, List<Call> calls) {
    }

    private static final class OrderCalls {
        private final ArrayDeque<Call> calls = new ArrayDeque<>();
        private long dropped;
    }

    private final Clock clock;
    private final int maxCallsPerOrder;
    private final int maxCalls;
    // Insertion order is last-call order: record() moves an order to the end, eviction takes the front.
    private final Map<String, OrderCalls> byOrder = new LinkedHashMap<>();
    private int held;

    CallTraces() {
        this(Clock.systemUTC(), MAX_CALLS_PER_ORDER, MAX_CALLS);
    }

    CallTraces(Clock clock, int maxCallsPerOrder, int maxCalls) {
        if (maxCallsPerOrder < 1 || maxCalls < maxCallsPerOrder) {
            throw new IllegalArgumentException("Need 1 <= maxCallsPerOrder <= maxCalls");
        }
        this.clock = clock;
        this.maxCallsPerOrder = maxCallsPerOrder;
        this.maxCalls = maxCalls;
    }

    /** Records a call now; an order id too long to be the agent's is not recorded at all. */
    synchronized void record(String orderId, String operation, String idempotencyKey, TraceParent traceParent) {
        if (orderId.length() > MAX_ORDER_ID_LENGTH) {
            return;
        }
        // The time is read under the lock, so an order's calls are listed in the order of their times.
        Call call = new Call(operation, idempotencyKey, clock.instant(),
                traceParent == null ? null : traceParent.value());
        OrderCalls order = byOrder.remove(orderId);
        if (order == null) {
            order = new OrderCalls();
        }
        byOrder.put(orderId, order);
        order.calls.addLast(call);
        held++;
        if (order.calls.size() > maxCallsPerOrder) {
            order.calls.removeFirst();
            order.dropped++;
            held--;
        }
        evictWhileOverCap();
    }

    synchronized View view(String orderId) {
        OrderCalls order = byOrder.get(orderId);
        return order == null ? new View(orderId, 0, List.of())
                : new View(orderId, order.dropped, List.copyOf(order.calls));
    }

    synchronized void clear() {
        byOrder.clear();
        held = 0;
    }

    private void evictWhileOverCap() {
        Iterator<OrderCalls> leastRecent = byOrder.values().iterator();
        // Never reaches the order just recorded: it is last, and holds at most maxCallsPerOrder <= maxCalls.
        while (held > maxCalls) {
            held -= leastRecent.next().calls.size();
            leastRecent.remove();
        }
    }
}
