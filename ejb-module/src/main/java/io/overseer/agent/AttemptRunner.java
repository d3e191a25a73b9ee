package io.overseer.agent;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.overseer.agent.api.CallResult;
import io.overseer.platform.Clocks;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.ShutdownGate;
import io.overseer.platform.TraceParent;
import io.overseer.platform.Tracing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one attempt against its deadline: calls, retries transient faults with backoff while time is
 * left, and returns the reply to send — or nothing once the complete-by has passed or the attempt is no
 * longer the current one (see {@link AttemptFence}). Calls go to the service that performs the
 * operation, through its circuit breaker ({@link RemoteServices}, {@link ServiceCircuit}); an open
 * circuit is one more transient fault. On an instance shutting down ({@link ShutdownGate}) no new call
 * starts: the attempt is handed back so that another instance takes it over at once. Counts what
 * happens in {@link AgentMetrics}.
 */
@ApplicationScoped
public class AttemptRunner {

    private static final Logger LOG = Logger.getLogger(AttemptRunner.class.getName());

    @Inject
    RemoteServices services;
    @Inject
    AgentMetrics metrics;
    @Inject
    AgentSettings settings;
    @Inject
    Clocks clocks;
    @Inject
    AttemptFence fence;
    @Inject
    ShutdownGate gate;
    @Inject
    CallPacer pacer;
    @Inject
    Tracing tracing;
    @Inject
    InstanceIdentity instance;

    public Optional<AgentReply> run(AttemptRequest request) {
        return run(request, false);
    }

    /**
     * @param fenced whether the caller has just checked that the attempt is current (the agent checks a
     *               whole batch in one query); later calls of the attempt are checked here, one by one
     */
    public Optional<AgentReply> run(AttemptRequest request, boolean fenced) {
        // The agent's span of the attempt (the consumer of the scheduler's dispatch span), current on this
        // worker while it runs: its calls are its children, and a coded agent's own client spans too.
        Span span = tracing.child(request.operation(), SpanKind.CONSUMER, request.trace());
        try (Scope ignored = span.makeCurrent()) {
            if (span.isRecording()) {
                span.setAttribute(Tracing.ORDER_ID, request.orderId());
                span.setAttribute(Tracing.OPERATION, request.operation());
                span.setAttribute(Tracing.EPOCH, request.epoch());
                span.setAttribute(Tracing.INSTANCE, instance.id());
            }
            Optional<AgentReply> reply = attempt(request, fenced, span);
            if (span.isRecording()) {
                span.setAttribute(Tracing.OUTCOME, reply.map(r -> r.outcome().name().toLowerCase(java.util.Locale.ROOT))
                        .orElse("abandoned"));
            }
            return reply.map(r -> r.tracedBy(TraceParent.of(span)));
        } finally {
            span.end();
        }
    }

    private Optional<AgentReply> attempt(AttemptRequest request, boolean fenced, Span span) {
        Backoff backoff = settings.backoff();
        for (int retry = 1; ; retry++) {
            if (!mayCall(request, fenced && retry == 1, span)) {
                return Optional.empty();
            }
            Duration left = remaining(request.completeBy()); // the pacing may have waited
            if (left.isNegative() || left.isZero()) {
                continue; // abandoned at the top of the loop, counted there
            }
            if (!gate.enter()) {
                return Optional.of(handBack(request));
            }
            if (retry > 1) {
                metrics.retried(request.operation());
            }
            CallResult result;
            try {
                result = call(request, left, span, retry);
            } finally {
                gate.exit();
            }
            switch (result.kind()) {
                case SUCCESS:
                    return Optional.of(AgentReply.succeeded(request, result.detail()));
                case NONTRANSIENT:
                    return Optional.of(refused(request, result));
                default:
                    transientFault(request, result, retry, span);
                    if (!sleep(backoff.delay(retry), request.completeBy())) {
                        return Optional.empty();
                    }
            }
        }
    }

    /**
     * Whether the attempt's next call may start: not once its complete-by has passed, nor when it is no
     * longer the current attempt, nor when its flow limit would start it only after the complete-by. Each
     * of these abandons the attempt silently (no reply), logged and counted here.
     *
     * @param fenceChecked whether the caller's check that the attempt is current stands for this call (the
     *                     first one of a batch the agent checked in one query)
     */
    private boolean mayCall(AttemptRequest request, boolean fenceChecked, Span span) {
        Duration left = remaining(request.completeBy());
        if (left.isNegative() || left.isZero()) {
            LOG.log(Level.INFO, "Order {0} (trace {2}): {1} not done by its complete-by; abandoning silently",
                    new Object[] {request.orderId(), request.operation(), TraceParent.traceId(request.trace())});
            metrics.failed(request.operation(), AgentMetrics.FailureKind.DEADLINE_ABANDONED);
            span.addEvent("abandoned: complete-by passed");
            return false;
        }
        if (!fenceChecked && !fence.isCurrent(request)) {
            LOG.log(Level.INFO, "Order {0} (trace {3}): {1} attempt (epoch {2}) is no longer current; abandoning silently",
                    new Object[] {request.orderId(), request.operation(), request.epoch(),
                            TraceParent.traceId(request.trace())});
            metrics.failed(request.operation(), AgentMetrics.FailureKind.FENCED);
            span.addEvent("abandoned: no longer the current attempt");
            return false;
        }
        if (!paced(request, span)) {
            LOG.log(Level.INFO, "Order {0} (trace {2}): {1} not started by its complete-by (per-second flow limit); abandoning silently",
                    new Object[] {request.orderId(), request.operation(), TraceParent.traceId(request.trace())});
            metrics.failed(request.operation(), AgentMetrics.FailureKind.DEADLINE_ABANDONED);
            span.addEvent("abandoned: not started by its complete-by (flow limit)");
            return false;
        }
        return true;
    }

    /** No new call on an instance shutting down: the attempt goes back so that another instance takes it at once. */
    private AgentReply handBack(AttemptRequest request) {
        LOG.log(Level.INFO, "Order {0} (trace {2}): {1} handed back: this instance is shutting down",
                new Object[] {request.orderId(), request.operation(), TraceParent.traceId(request.trace())});
        metrics.failed(request.operation(), AgentMetrics.FailureKind.HANDED_BACK);
        return AgentReply.handedBack(request, "instance shutting down; call not attempted");
    }

    private AgentReply refused(AttemptRequest request, CallResult result) {
        LOG.log(Level.WARNING, "Order {0} (trace {3}): {1} refused: {2}",
                new Object[] {request.orderId(), request.operation(), result.detail(),
                        TraceParent.traceId(request.trace())});
        metrics.failed(request.operation(), AgentMetrics.FailureKind.NONTRANSIENT);
        return AgentReply.failed(request, result.detail());
    }

    /** A transient fault (an open circuit is one): counted and traced; the caller backs off and retries. */
    private void transientFault(AttemptRequest request, CallResult result, int retry, Span span) {
        LOG.log(Level.FINE, "Order {0} (trace {4}): {1} transient fault, retry {2}: {3}",
                new Object[] {request.orderId(), request.operation(), retry, result.detail(),
                        TraceParent.traceId(request.trace())});
        metrics.failed(request.operation(), CallResults.isCircuitOpen(result)
                ? AgentMetrics.FailureKind.CIRCUIT_OPEN : AgentMetrics.FailureKind.TRANSIENT);
        if (span.isRecording()) {
            span.addEvent((CallResults.isCircuitOpen(result) ? "circuit open, retry " : "transient fault, retry ")
                    + retry + ": " + Tracing.bounded(result.detail()));
        }
    }

    /**
     * Waits, if the operation has a per-second limit, until its call may start ({@link CallPacer}): false if
     * the complete-by comes first (or the wait is interrupted). Most waits end at the next second.
     */
    private boolean paced(AttemptRequest request, Span attempt) {
        if (!pacer.paces(request.operation())) {
            return true;
        }
        Span waiting = null; // a span of the wait, if there is one: the flow limit's share of the attempt
        try {
            for (OffsetDateTime retryAt = pacer.tryStart(request.operation()); retryAt != null;
                    retryAt = pacer.tryStart(request.operation())) {
                if (waiting == null) {
                    waiting = tracing.under(attempt, "flow-limit wait", SpanKind.INTERNAL);
                }
                Duration wait = Duration.between(clocks.now(), retryAt);
                if (!retryAt.isBefore(request.completeBy()) || !sleep(wait, request.completeBy())) {
                    return false;
                }
            }
            return true;
        } finally {
            if (waiting != null) {
                waiting.end();
            }
        }
    }

    /**
     * One call, in a span of its own under the attempt's: a client span for an HTTP service (whose traceparent
     * header {@link HttpRemoteService} sends from it), one refused by an open circuit says so.
     */
    private CallResult call(AttemptRequest request, Duration timeout, Span attempt, int retry) {
        long started = System.nanoTime();
        ServiceCircuit service = services.route(request.operation());
        Span span = tracing.under(attempt, service.callName(request.operation()), service.spanKind());
        try (Scope ignored = span.makeCurrent()) {
            CallResult result = service.call(request, timeout);
            if (!CallResults.isCircuitOpen(result)) {
                metrics.called(request.operation(), Duration.ofNanos(System.nanoTime() - started));
            }
            if (span.isRecording()) {
                span.setAttribute(Tracing.SERVICE, service.name());
                span.setAttribute("overseer.call", (long) retry);
                span.setAttribute(Tracing.OUTCOME, CallResults.isCircuitOpen(result) ? "circuit open"
                        : result.kind().name().toLowerCase(java.util.Locale.ROOT));
                if (result.kind() != CallResult.Kind.SUCCESS) {
                    Tracing.failed(span, result.detail());
                }
            }
            return result;
        } finally {
            span.end();
        }
    }

    private Duration remaining(OffsetDateTime completeBy) {
        return Duration.between(clocks.now(), completeBy);
    }

    /** Waits before the next retry, never past the deadline; false if interrupted. */
    private boolean sleep(Duration delay, OffsetDateTime completeBy) {
        Duration left = remaining(completeBy);
        try {
            Thread.sleep(Math.max(0, Math.min(delay.toMillis(), left.toMillis())));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
