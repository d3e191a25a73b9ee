package io.overseer.platform;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import java.util.HashMap;
import java.util.Map;

/**
 * A W3C trace context as Overseer stores and carries it between the hops of an order: the {@code traceparent}
 * text, version 00, 55 characters. Everything that arrives from outside (an HTTP header, a JMS property, a
 * message body) passes {@link #parse} first, which is bounded and never throws: a malformed, oversized or
 * all-zero value reads as no parent, so the order starts a trace of its own and is otherwise accepted as if
 * nothing had been sent. The value is never logged as received; a log line names a trace by the id of a
 * context that passed this check ({@link #traceId}).
 *
 * <p>The check is OpenTelemetry's W3C propagator behind a version-00 frame; the remote-service simulator, a
 * separate tool that cannot depend on this module, checks the headers it receives with the same library.
 *
 * <p>{@code tracestate} is accepted with the traceparent at the order's entry (HTTP and the order queue,
 * bounded by {@link #MAX_TRACESTATE}, then parsed by OpenTelemetry's own W3C propagator, which drops what is
 * not a valid list) and lives on in the spans of that hop; it is not stored with the order, so the hops after
 * the order's durable wait carry the traceparent alone.
 */
public final class TraceParent {

    /** The length of a version-00 traceparent: "00-" 32 hex "-" 16 hex "-" 2 hex. */
    public static final int LENGTH = 55;
    /** Longer than the W3C's 512-character limit reads as absent (the propagator would cut it anyway). */
    public static final int MAX_TRACESTATE = 512;
    /** The message property and header names (W3C Trace Context; valid JMS property identifiers too). */
    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";

    private static final TextMapGetter<Map<String, String>> MAP_GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };
    private static final TextMapSetter<Map<String, String>> MAP_SETTER = Map::put;

    private TraceParent() {
    }

    /**
     * The remote parent that {@code traceparent} (and {@code tracestate}, may be null) name, or null when
     * the value is absent or not a valid version-00 traceparent — never an exception, whatever the input.
     */
    public static SpanContext parse(String traceparent, String tracestate) {
        if (!version00(traceparent)) {
            return null;
        }
        Map<String, String> carrier = new HashMap<>(4);
        carrier.put(TRACEPARENT, traceparent);
        if (tracestate != null && tracestate.length() <= MAX_TRACESTATE) {
            carrier.put(TRACESTATE, tracestate);
        }
        // The propagator checks the rest: lowercase hex ids and flags, ids not all zero (SpanContext#isValid).
        SpanContext parent = Span.fromContext(W3CTraceContextPropagator.getInstance()
                .extract(Context.root(), carrier, MAP_GETTER)).getSpanContext();
        return parent.isValid() ? parent : null;
    }

    /** As {@link #parse(String, String)}, without a tracestate (what the state store and the messages keep). */
    public static SpanContext parse(String traceparent) {
        return parse(traceparent, null);
    }

    /** The traceparent of {@code span}, or null when it is not part of a valid trace (tracing off). */
    public static String of(Span span) {
        return of(span.getSpanContext());
    }

    /** The traceparent naming {@code context} as parent, or null when it is not valid. */
    public static String of(SpanContext context) {
        if (context == null || !context.isValid()) {
            return null;
        }
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex();
    }

    /** The trace id of a traceparent that passed {@link #parse}, for log lines; "-" when there is none. */
    public static String traceId(String traceparent) {
        SpanContext parsed = parse(traceparent);
        return parsed == null ? "-" : parsed.getTraceId();
    }

    /**
     * The W3C headers of {@code context} (traceparent and, if any, tracestate), to send on an HTTP call; empty
     * when there is no valid span in it.
     */
    public static Map<String, String> headers(Context context) {
        Map<String, String> headers = new HashMap<>(4);
        W3CTraceContextPropagator.getInstance().inject(context, headers, MAP_SETTER);
        return headers;
    }

    /** A context whose span is the remote {@code parent}: what a span started under it is the child of. */
    public static Context context(SpanContext parent) {
        return parent == null ? Context.root() : Context.root().with(Span.wrap(parent));
    }

    /**
     * Version 00 at its exact length, before the propagator reads it: the propagator also takes later versions
     * and longer values (the W3C's rule for a version it does not know), which Overseer neither stores nor
     * passes on.
     */
    static boolean version00(String value) {
        return value != null && value.length() == LENGTH && value.startsWith("00-");
    }
}
