package io.overseer.admin;

import io.opentelemetry.api.trace.Span;
import io.overseer.platform.TraceParent;
import io.overseer.platform.Tracing;
import io.overseer.platform.Clocks;
import io.overseer.messaging.DispatchQueue;
import io.overseer.statestore.Actor;
import io.overseer.statestore.IllegalTransitionException;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What an operator may do to an order: run it again from where it failed, or cancel it (undoing what it
 * did). Each action is one transaction under the order's row lock, recorded in the history with the
 * operator's name and reason; the work itself is handed to a scheduler through the order queue.
 */
@Stateless
public class OperatorActions {

    private static final Logger LOG = Logger.getLogger(OperatorActions.class.getName());

    @Inject
    StateStore store;
    @Inject
    WorkflowRegistry workflows;
    @Inject
    DispatchQueue dispatchQueue;
    @Inject
    Clocks clocks;
    @Inject
    AuditLog audit;
    @Inject
    Tracing tracing;

    /** @return false if there is no such order; an illegal state throws IllegalTransitionException */
    public boolean resubmit(String orderId, String operator, String reason) {
        return act(BulkAction.resubmit, orderId, operator, reason);
    }

    /** @return false if there is no such order; an illegal state throws IllegalTransitionException */
    public boolean cancel(String orderId, String operator, String reason) {
        return act(BulkAction.cancel, orderId, operator, reason);
    }

    private boolean act(BulkAction action, String orderId, String operator, String reason) {
        Optional<OrderState> locked = store.lock(orderId);
        locked.ifPresent(state -> finish(state, action, operator, reason, apply(state, action, operator, reason), true));
        return locked.isPresent();
    }

    /**
     * One order of a bulk job ({@link BulkJobs}): the action under the order's row lock, in the caller's
     * transaction, recorded in the order's history with the operator's name and the job's reason. Not in
     * the audit log: the job is there once, as a whole. An order that is gone or whose state refuses the
     * action is skipped, with why; nothing was changed then (a refusal comes before any change).
     */
    public BulkItems.Outcome inBulk(BulkAction action, String orderId, String operator, String reason) {
        Optional<OrderState> locked = store.lock(orderId);
        if (locked.isEmpty()) {
            return BulkItems.Outcome.skipped("no such order");
        }
        OrderState state = locked.get();
        try {
            finish(state, action, operator, reason, apply(state, action, operator, reason), false);
            return BulkItems.Outcome.done("now " + state.processState());
        } catch (IllegalTransitionException e) {
            return BulkItems.Outcome.skipped(e.getMessage().replaceFirst("^Order \\S+: ", ""));
        }
    }

    /** The action's transition of the locked order; whether a scheduler must be told of it. */
    private boolean apply(OrderState state, BulkAction action, String operator, String reason) {
        Actor actor = Actor.of(Actor.Kind.operator, operator);
        return switch (action) {
            case resubmit -> {
                state.resubmit(clocks.now(), actor, reason);
                yield true;
            }
            case cancel -> state.cancel(clocks.now(), workflows.get(state.workflow(), state.workflowVersion()), actor,
                    reason);
            case release -> {
                state.releaseFromPause(clocks.now(), actor, reason);
                yield true;
            }
            case redrive -> throw new IllegalArgumentException("a redrive acts on dead letters, not orders");
        };
    }

    private void finish(OrderState state, BulkAction action, String operator, String reason, boolean dispatch,
                        boolean audited) {
        store.saveHistory(state);
        if (dispatch) {
            var now = clocks.now();
            dispatchQueue.announce(state.orderId(), state.notBefore() == null || !state.notBefore().isAfter(now)
                    ? java.time.Duration.ZERO : java.time.Duration.between(now, state.notBefore()));
        }
        if (audited) {
            audit.record(operator, action.name(), state.orderId(), reason, "now " + state.processState());
        }
        String done = switch (action) {
            case resubmit -> "resubmitted";
            case cancel -> "cancelled";
            default -> "released from its pause";
        };
        traced(state, done, operator, reason);
        LOG.log(Level.INFO, "Order {0} (trace {5}) {1} by operator {2} ({3}): now {4}",
                new Object[] {state.orderId(), done, operator, reason, state.processState(),
                        TraceParent.traceId(state.traceParent())});
    }

    /**
     * The action's span in the order's trace, linked to the operator's own request (the HTTP request's span,
     * current here), whose trace is the operator's and not the order's.
     */
    private void traced(OrderState state, String action, String operator, String reason) {
        Span span = tracing.caused("operator: " + action, state.traceParent(), Span.current().getSpanContext());
        if (span.isRecording()) {
            span.setAttribute(Tracing.ORDER_ID, state.orderId());
            span.setAttribute(Tracing.ACTOR, operator);
            span.setAttribute(Tracing.DETAIL, Tracing.bounded(reason));
            span.setAttribute(Tracing.STATE, state.processState().name());
        }
        span.end();
    }
}
