package io.overseer.platform;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;

/**
 * The orders' traces, through MicroProfile Telemetry's {@link Tracer}: one trace per order, whatever waits,
 * instances and retries lie between its hops (docs/tracing.md). An order's submission span is stored with it
 * ({@code order_state.trace_parent}); every later span about the order — a claim, an agent's call, a reply
 * applied, the supervisor's decision, an operator's action — is started from that stored context, or from the
 * one its message carries, never from a thread's current context, which does not survive the order's waits.
 *
 * <p>Off (the default: MicroProfile Telemetry's {@code otel.sdk.disabled} is true unless configured) the
 * tracer is a no-op one: {@link #on()} is false, nothing is stored or carried, and every method here returns
 * the invalid span at once, so the hot path pays one volatile read per hop. On, an order whose submission
 * was not traced (it came before tracing was turned on) gets no spans either: spans of its later hops would
 * each start a trace of their own, which answers nobody's question.
 */
@ApplicationScoped
public class Tracing {

    public static final AttributeKey<String> ORDER_ID = AttributeKey.stringKey("overseer.order.id");
    public static final AttributeKey<String> WORKFLOW = AttributeKey.stringKey("overseer.workflow");
    public static final AttributeKey<String> WORKFLOW_VERSION = AttributeKey.stringKey("overseer.workflow.version");
    public static final AttributeKey<String> STEP = AttributeKey.stringKey("overseer.step");
    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("overseer.operation");
    public static final AttributeKey<Long> EPOCH = AttributeKey.longKey("overseer.epoch");
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("overseer.attempt");
    public static final AttributeKey<Boolean> COMPENSATION = AttributeKey.booleanKey("overseer.compensation");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("overseer.outcome");
    public static final AttributeKey<String> STATE = AttributeKey.stringKey("overseer.order.state");
    public static final AttributeKey<String> INSTANCE = AttributeKey.stringKey("overseer.instance");
    public static final AttributeKey<String> SERVICE = AttributeKey.stringKey("overseer.service");
    public static final AttributeKey<String> ACTOR = AttributeKey.stringKey("overseer.actor");
    public static final AttributeKey<String> DETAIL = AttributeKey.stringKey("overseer.detail");
    /** Attribute values taken from answers or reasons are cut here: a span is not a place for a payload. */
    public static final int MAX_DETAIL = 256;

    @Inject
    Tracer tracer;

    /** Whether spans are recorded: decided once, by the tracer's answer to an unsampled probe. */
    private volatile Boolean on;

    /** For CDI. */
    public Tracing() {
    }

    /** Tracing through {@code tracer}, outside a container (tests that build their beans by hand). */
    public Tracing(Tracer tracer) {
        this.tracer = tracer;
    }

    /** Tracing off: OpenTelemetry's no-op tracer, what MicroProfile Telemetry injects by default. */
    public static Tracing off() {
        return new Tracing(io.opentelemetry.api.OpenTelemetry.noop().getTracer("overseer"));
    }

    /**
     * Whether tracing is on. A disabled SDK's tracer starts spans without a valid context (OpenTelemetry's
     * no-op); an enabled one gives even an unsampled span valid ids. The probe is never ended, so never
     * exported.
     */
    public boolean on() {
        Boolean known = on;
        if (known == null) {
            known = tracer.spanBuilder("overseer.tracing-probe").setNoParent().startSpan().getSpanContext().isValid();
            on = known;
        }
        return known;
    }

    /**
     * A span at an order's entry: the child of the thread's current span (the HTTP request's server span,
     * which carries the submitter's traceparent if it sent one), else the root of a new trace.
     */
    public Span entry(String name) {
        if (!on()) {
            return Span.getInvalid();
        }
        return tracer.spanBuilder(name).setSpanKind(SpanKind.INTERNAL).setParent(Context.current()).startSpan();
    }

    /**
     * A span at an order's entry from a message: the consumer of {@code traceparent} and {@code tracestate}
     * as the message carries them (either may be null, malformed or hostile: then the span starts a new trace,
     * see {@link TraceParent#parse}).
     */
    public Span received(String name, String traceparent, String tracestate) {
        if (!on()) {
            return Span.getInvalid();
        }
        SpanContext parent = TraceParent.parse(traceparent, tracestate);
        SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(SpanKind.CONSUMER);
        return (parent == null ? builder.setNoParent() : builder.setParent(TraceParent.context(parent))).startSpan();
    }

    /** A span of the order whose stored or carried context is {@code traceparent}; none if it has no trace. */
    public Span child(String name, SpanKind kind, String traceparent) {
        return child(name, kind, traceparent, null);
    }

    /**
     * As {@link #child(String, SpanKind, String)}, linked to {@code cause}, the span of the request that caused
     * it in a trace of its own (an operator's HTTP request), if that is valid.
     */
    public Span caused(String name, String traceparent, SpanContext cause) {
        SpanBuilder builder = builderUnder(name, SpanKind.INTERNAL, traceparent);
        if (builder == null) {
            return Span.getInvalid();
        }
        if (cause.isValid()) {
            builder.addLink(cause);
        }
        return builder.startSpan();
    }

    /** As {@link #child(String, SpanKind, String)}, begun at {@code start} (a time recorded earlier), if not null. */
    public Span child(String name, SpanKind kind, String traceparent, Instant start) {
        SpanBuilder builder = builderUnder(name, kind, traceparent);
        if (builder == null) {
            return Span.getInvalid();
        }
        if (start != null) {
            builder.setStartTimestamp(start);
        }
        return builder.startSpan();
    }

    /** A span's builder under the stored context {@code traceparent}; null when off, or without a valid one. */
    private SpanBuilder builderUnder(String name, SpanKind kind, String traceparent) {
        if (traceparent == null || !on()) {
            return null;
        }
        SpanContext parent = TraceParent.parse(traceparent);
        return parent == null ? null : tracer.spanBuilder(name).setSpanKind(kind).setParent(TraceParent.context(parent));
    }

    /** A span under {@code parent}, a span of this thread (e.g. an agent's call under its attempt). */
    public Span under(Span parent, String name, SpanKind kind) {
        if (!parent.getSpanContext().isValid()) {
            return Span.getInvalid();
        }
        return tracer.spanBuilder(name).setSpanKind(kind).setParent(Context.root().with(parent)).startSpan();
    }

    /** Marks {@code span} failed with {@code detail}, cut to {@link #MAX_DETAIL}. */
    public static void failed(Span span, String detail) {
        if (span.isRecording()) {
            span.setStatus(StatusCode.ERROR, bounded(detail));
        }
    }

    /** {@code text} cut to {@link #MAX_DETAIL} characters, for an attribute or an event. */
    public static String bounded(String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= MAX_DETAIL ? text : text.substring(0, MAX_DETAIL) + "…";
    }
}
