package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tracing against the real OpenTelemetry SDK, its spans read back from an in-memory exporter. */
class TracingTest {

    private static final String CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exported)).build();
    private final Tracing tracing = new Tracing(provider.get("overseer-test"));

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void offItStartsNothingAndCarriesNothing() {
        Tracing off = Tracing.off();
        assertFalse(off.on());
        Span entry = off.entry("submit order");
        assertFalse(entry.getSpanContext().isValid());
        assertEquals(null, TraceParent.of(entry));
        assertFalse(off.child("dispatch reserve", SpanKind.PRODUCER, CALLER).getSpanContext().isValid());
        assertFalse(off.received("receive order", CALLER, null).getSpanContext().isValid());
    }

    @Test
    void anEntryJoinsTheCurrentSpanAndEveryLaterHopJoinsTheStoredContext() {
        assertTrue(tracing.on());
        Span request = tracing.received("POST /api/orders", CALLER, null); // stands for the HTTP server span
        String stored;
        try (Scope ignored = request.makeCurrent()) {
            Span submit = tracing.entry("submit order");
            stored = TraceParent.of(submit);
            submit.end();
        }
        request.end();
        Span dispatch = tracing.child("dispatch reserve", SpanKind.PRODUCER, stored, Instant.now().minusSeconds(1));
        Span agent = tracing.child("reserve", SpanKind.CONSUMER, TraceParent.of(dispatch));
        Span call = tracing.under(agent, "POST reserve", SpanKind.CLIENT);
        call.end();
        agent.end();
        dispatch.end();

        List<SpanData> spans = exported.getFinishedSpanItems();
        assertEquals(5, spans.size());
        spans.forEach(span -> assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", span.getTraceId(), span.getName()));
        assertEquals("00f067aa0ba902b7", named(spans, "POST /api/orders").getParentSpanId());
        assertEquals(named(spans, "POST /api/orders").getSpanId(), named(spans, "submit order").getParentSpanId());
        assertEquals(named(spans, "submit order").getSpanId(), named(spans, "dispatch reserve").getParentSpanId());
        assertEquals(named(spans, "dispatch reserve").getSpanId(), named(spans, "reserve").getParentSpanId());
        assertEquals(named(spans, "reserve").getSpanId(), named(spans, "POST reserve").getParentSpanId());
        assertEquals(SpanKind.CLIENT, named(spans, "POST reserve").getKind());
        assertTrue(named(spans, "dispatch reserve").getEndEpochNanos() - named(spans, "dispatch reserve").getStartEpochNanos()
                >= 1_000_000_000L, "begun at the time given");
    }

    @Test
    void aBadTraceparentOnAMessageStartsANewTraceInsteadOfFailing() {
        Span span = tracing.received("receive order", "00-zzzz-bad", "k=" + "v".repeat(10_000));
        span.end();
        SpanData data = exported.getFinishedSpanItems().get(0);
        assertTrue(span.getSpanContext().isValid());
        assertFalse(data.getParentSpanContext().isValid(), "a root span");
        assertNotEquals("4bf92f3577b34da6a3ce929d0e0e4736", data.getTraceId());
    }

    @Test
    void anOrderWithoutAStoredTraceGetsNoSpans() {
        assertFalse(tracing.child("dispatch reserve", SpanKind.PRODUCER, null).getSpanContext().isValid());
        assertFalse(tracing.child("dispatch reserve", SpanKind.PRODUCER, "not-a-traceparent").getSpanContext().isValid());
        assertTrue(exported.getFinishedSpanItems().isEmpty());
    }

    @Test
    void detailsAreBounded() {
        assertEquals(Tracing.MAX_DETAIL + 1, Tracing.bounded("x".repeat(10_000)).length());
        assertEquals("", Tracing.bounded(null));
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }
}
