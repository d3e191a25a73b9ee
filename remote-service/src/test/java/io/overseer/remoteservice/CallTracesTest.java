package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallTracesTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final TraceParent TRACE = TraceParent.parse(TraceParentTest.VALID);

    private final CallTraces traces = new CallTraces(Clock.fixed(NOW, ZoneOffset.UTC), 3, 5);

    @Test
    void callsAreListedInArrivalOrderWithTheirTraceSplitOut() {
        traces.record("order-1", "charge-payment", "order-1:charge-payment", TRACE);
        traces.record("order-2", "charge-payment", "order-2:charge-payment", TRACE);
        traces.record("order-1", "ship-order", "order-1:ship-order", null);

        CallTraces.View view = traces.view("order-1");
        assertEquals(0, view.dropped());
        assertEquals(List.of("charge-payment", "ship-order"), operations(view));
        CallTraces.Call first = view.calls().get(0);
        assertEquals("order-1:charge-payment", first.idempotencyKey());
        assertEquals(NOW, first.arrivedAt());
        assertEquals(TraceParentTest.VALID, first.traceparent());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", first.traceId());
        assertEquals("00f067aa0ba902b7", first.parentSpanId());
        CallTraces.Call untraced = view.calls().get(1);
        assertNull(untraced.traceparent());
        assertNull(untraced.traceId());
        assertNull(untraced.parentSpanId());
    }

    @Test
    void anOrderKeepsItsLastCallsAndCountsTheDropped() {
        for (String operation : List.of("a", "b", "c", "d", "e")) {
            traces.record("order-1", operation, "order-1:" + operation, TRACE);
        }

        CallTraces.View view = traces.view("order-1");
        assertEquals(List.of("c", "d", "e"), operations(view));
        assertEquals(2, view.dropped());
    }

    @Test
    void pastTheGlobalCapTheLeastRecentlyCalledOrderIsForgottenWhole() {
        traces.record("order-1", "a", "order-1:a", TRACE);
        traces.record("order-2", "a", "order-2:a", TRACE);
        traces.record("order-2", "b", "order-2:b", TRACE);
        traces.record("order-3", "a", "order-3:a", TRACE);
        // order-1 is called again, so order-2 is now the least recently called.
        traces.record("order-1", "b", "order-1:b", TRACE);

        traces.record("order-3", "b", "order-3:b", TRACE);

        assertEquals(List.of(), traces.view("order-2").calls());
        assertEquals(List.of("a", "b"), operations(traces.view("order-1")));
        assertEquals(List.of("a", "b"), operations(traces.view("order-3")));
    }

    @Test
    void anOverlongOrderIdIsNotRecorded() {
        String overlong = "o".repeat(CallTraces.MAX_ORDER_ID_LENGTH + 1);
        String longest = "o".repeat(CallTraces.MAX_ORDER_ID_LENGTH);

        traces.record(overlong, "a", "key", TRACE);
        traces.record(longest, "a", "key", TRACE);

        assertEquals(List.of(), traces.view(overlong).calls());
        assertEquals(List.of("a"), operations(traces.view(longest)));
    }

    @Test
    void clearForgetsEverything() {
        traces.record("order-1", "a", "order-1:a", TRACE);

        traces.clear();

        assertTrue(traces.view("order-1").calls().isEmpty());
        // The count of held calls restarts too: five fit again before any eviction.
        for (String order : List.of("o1", "o2", "o3", "o4", "o5")) {
            traces.record(order, "a", order + ":a", TRACE);
        }
        assertEquals(1, traces.view("o1").calls().size());
    }

    @Test
    void aPerOrderCapAboveTheGlobalOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CallTraces(Clock.systemUTC(), 6, 5));
    }

    private static List<String> operations(CallTraces.View view) {
        return view.calls().stream().map(CallTraces.Call::operation).toList();
    }
}
