package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.trace.SpanContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What an order accepts as its submitter's trace context: a valid version-00 traceparent, nothing else. */
class TraceParentTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidTraceparentIsTheRemoteParentAndIsWrittenBackTheSame() {
        SpanContext parent = TraceParent.parse(VALID);
        assertNotNull(parent);
        assertTrue(parent.isRemote());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", parent.getTraceId());
        assertEquals("00f067aa0ba902b7", parent.getSpanId());
        assertTrue(parent.isSampled());
        assertEquals(VALID, TraceParent.of(parent));
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", TraceParent.traceId(VALID));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "",
            "garbage",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",   // uppercase
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",   // all-zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",   // all-zero span id
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",   // another version
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",   // shifted separator
            " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g"})
    void aMalformedTraceparentIsNoParent(String value) {
        assertNull(TraceParent.parse(value));
        assertNull(TraceParent.parse(value, "vendor=value"));
        assertEquals("-", TraceParent.traceId(value));
    }

    @Test
    void anAbsentOrOversizedTraceparentIsNoParentAndCostsNoParse() {
        assertNull(TraceParent.parse(null));
        assertNull(TraceParent.parse(VALID + "0".repeat(1_000_000)));
        assertEquals("-", TraceParent.traceId(null));
    }

    @Test
    void aHostileTracestateIsDroppedAndTheParentKept() {
        String huge = "k=" + "v".repeat(100_000);
        String tooMany = String.join(",", java.util.stream.IntStream.range(0, 100).mapToObj(i -> "k" + i + "=v").toList());
        for (String state : new String[] {huge, tooMany, "=,=,===", "k=v\n\rinjected", "KEY=UPPER"}) {
            SpanContext parent = TraceParent.parse(VALID, state);
            assertNotNull(parent, state.length() > 40 ? state.substring(0, 40) : state);
            assertTrue(parent.getTraceState().isEmpty(), "tracestate kept: " + parent.getTraceState());
        }
        SpanContext kept = TraceParent.parse(VALID, "vendor=abc,other=1");
        assertEquals("abc", kept.getTraceState().get("vendor"));
    }
}
