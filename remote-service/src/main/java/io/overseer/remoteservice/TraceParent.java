package io.overseer.remoteservice;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;

/**
 * A W3C {@code traceparent} header of version 00, as a caller's client span sends it. Only a
 * well-formed one is ever kept: anything else comes from a client the simulator must not trust, so it
 * is treated as absent rather than stored, logged or answered back.
 *
 * <p>Validated as Overseer validates what it receives ({@code io.overseer.platform.TraceParent}): version 00
 * at its exact length, the rest by OpenTelemetry's own W3C propagator (lowercase hex, ids not all zero). The
 * simulator is a separate tool that cannot depend on the application, so the two share the library, not code.
 */
record TraceParent(String value) {

    static final String HEADER = "traceparent";
    static final int LENGTH = 55;

    private static final TextMapGetter<String> HEADER_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(HEADER);
        }

        @Override
        public String get(String carrier, String key) {
            return HEADER.equals(key) ? carrier : null;
        }
    };

    /**
     * The header's values as received, or null: absent, repeated (the W3C rule: several
     * {@code traceparent} headers make the context invalid), malformed or oversized are all null.
     */
    static TraceParent fromHeaders(List<String> values) {
        return values == null || values.size() != 1 ? null : parse(values.get(0));
    }

    static TraceParent parse(String header) {
        // Length first, so an oversized header costs nothing more than this comparison.
        if (header == null || header.length() != LENGTH || !header.startsWith("00-")) {
            return null;
        }
        boolean valid = Span.fromContext(W3CTraceContextPropagator.getInstance()
                .extract(Context.root(), header, HEADER_GETTER)).getSpanContext().isValid();
        return valid ? new TraceParent(header) : null;
    }

    String traceId() {
        return value.substring(3, 35);
    }

    String parentSpanId() {
        return value.substring(36, 52);
    }
}
