package io.overseer.scheduler;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.overseer.agent.AttemptRequest;
import io.overseer.messaging.Courier;
import io.overseer.messaging.Destinations;
import io.overseer.messaging.Parcel;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.TraceParent;
import io.overseer.platform.Tracing;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.OrderContent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;

/**
 * The scheduler's side of the request/reply channel to the agents. A request leaves after the claiming
 * transaction commits, so an agent never sees an attempt the state store does not record; requests for
 * one operation that wait together leave as one message, which one agent delivery works as a batch. The
 * message expires with the latest complete-by in it: a request nobody started in time is dropped by the
 * broker, not worked late (the agent checks each request's own deadline too).
 */
@ApplicationScoped
public class AgentGateway {

    @Inject
    Courier courier;
    @Inject
    Tracing tracing;
    @Inject
    InstanceIdentity instance;

    /**
     * Hands the attempt to the courier, inside its dispatch span (the producer of the agent's): the first span
     * of each step attempt in the order's trace, its children the agent's work and the reply's application.
     */
    public void request(Attempt attempt, OrderContent order) {
        Span span = tracing.child(dispatchSpanName(attempt), SpanKind.PRODUCER, attempt.trace());
        try {
            AttemptRequest request = new AttemptRequest(attempt.orderId(), attempt.epoch(), attempt.stepSeq(),
                    attempt.token(), attempt.operation(), AttemptRequest.idempotencyKey(attempt.orderId(), attempt.operation()),
                    attempt.completeBy(), order.customerId(),
                    order.lines().stream().map(line -> new AttemptRequest.Line(line.sku(), line.quantity())).toList(),
                    attempt.heartbeat(), attempt.events(), TraceParent.of(span));
            if (span.isRecording()) {
                describe(span, attempt);
            }
            courier.send(Parcel.batched(Destinations.AGENT_REQUESTS, attempt.operation(), request,
                    Map.of("operation", attempt.operation()), attempt.completeBy()));
        } finally {
            span.end();
        }
    }

    /** "dispatch reserve", "dispatch undo reserve" (a compensation names the step it undoes). */
    static String dispatchSpanName(Attempt attempt) {
        return (attempt.compensation() ? "dispatch undo " : "dispatch ") + attempt.stepName();
    }

    private void describe(Span span, Attempt attempt) {
        span.setAttribute(Tracing.ORDER_ID, attempt.orderId());
        if (attempt.workflow() != null) {
            span.setAttribute(Tracing.WORKFLOW, attempt.workflow());
        }
        span.setAttribute(Tracing.STEP, attempt.stepName());
        span.setAttribute(Tracing.OPERATION, attempt.operation());
        span.setAttribute(Tracing.EPOCH, attempt.epoch());
        span.setAttribute(Tracing.ATTEMPT, (long) attempt.number());
        span.setAttribute(Tracing.COMPENSATION, attempt.compensation());
        span.setAttribute(Tracing.INSTANCE, instance.id());
        span.setAttribute("overseer.complete_by", attempt.completeBy().toString());
    }
}
