package io.overseer.supervisor;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.overseer.platform.TraceParent;
import io.overseer.platform.Tracing;
import io.overseer.platform.Clocks;
import io.overseer.platform.HeldLease;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import io.overseer.messaging.DispatchQueue;
import io.overseer.statestore.Actor;
import io.overseer.statestore.ExpiryDecision;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Recovers one expired attempt in its own transaction, so one bad row never stops a sweep. The order is
 * re-checked under its row lock: a reply that completed it since the sweep read it wins. The supervisor
 * only decides (by the step's {@link RecoveryPolicy}) and records; running the retry or the
 * compensation is asked of a scheduler through the order queue.
 *
 * <p>Only the supervisor's current lease tenure may recover: the transaction first fences on the lease,
 * so a supervisor that was paused past its lease while a successor swept wakes up to a refusal instead of
 * counting the same expiry a second time.
 */
@Stateless
public class ExpiredStepRecovery {

    private static final Logger LOG = Logger.getLogger(ExpiredStepRecovery.class.getName());

    @Inject
    StateStore store;
    @Inject
    WorkflowRegistry workflows;
    @Inject
    DispatchQueue dispatchQueue;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;
    @EJB
    JobLease leases;
    @Inject
    Tracing tracing;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    /** @return whether the order's attempt had expired and was retried or given up */
    public boolean recover(String orderId, HeldLease lease) throws LeaseLostException {
        leases.fence(lease);
        var now = clocks.now();
        OrderState state = store.lock(orderId).orElse(null);
        if (state == null || !state.isExpired(now)) {
            return false;
        }
        WorkflowDefinition definition = workflows.get(state.workflow(), state.workflowVersion());
        Actor supervisor = Actor.of(Actor.Kind.supervisor, instance.id());
        // A parallel group may have several expired branches; each is decided by its own step's policy, until
        // one gives up: that abandons the others, and the order is no longer running forward.
        for (String stepName : state.expiredSteps(now)) {
            if (!state.expiredSteps(now).contains(stepName)) {
                continue; // abandoned by a sibling's give-up
            }
            recoverStep(state, definition, definition.step(stepName), now, supervisor);
        }
        store.saveHistory(state); // an order given up to an operator alerts from here (NeedsOperatorAlert)
        return true;
    }

    private void recoverStep(OrderState state, WorkflowDefinition definition, StepDefinition step,
                             java.time.OffsetDateTime now, Actor supervisor) {
        String orderId = state.orderId();
        ExpiryDecision decision = RecoveryPolicy.of(step, state.isCompensating())
                .onExpired(state.failuresIncludingExpiry(step.name()));
        // A retry is announced for when it is due; a compensation for when abandoned branches let it start.
        Span span = tracing.child("supervisor: " + step.name() + " expired", SpanKind.INTERNAL, state.traceParent());
        state.recoverExpired(step.name(), decision, now, definition, supervisor)
                .ifPresent(due -> dispatchQueue.announce(orderId, Duration.between(now, due)));
        if (span.isRecording()) {
            span.setAttribute(Tracing.ORDER_ID, orderId);
            span.setAttribute(Tracing.STEP, step.name());
            span.setAttribute(Tracing.EPOCH, state.epoch());
            span.setAttribute(Tracing.OUTCOME, decision.kind().name().toLowerCase(java.util.Locale.ROOT));
            span.setAttribute(Tracing.STATE, state.processState().name());
            span.setAttribute(Tracing.INSTANCE, instance.id());
            span.setAttribute("overseer.failures", (long) state.failureCount());
            if (state.processState().isFinal()) {
                Span last = tracing.under(span, "order " + state.processState().name(), SpanKind.INTERNAL);
                last.setAttribute(Tracing.STATE, state.processState().name());
                Tracing.failed(last, state.lastError());
                last.end();
            }
        }
        span.end();
        LOG.log(Level.INFO, "Order {0} (trace {5}): {1} expired (failure {2}); {3} → {4}",
                new Object[] {orderId, step.name(), state.failureCount(), decision.kind(), state.processState(),
                        TraceParent.traceId(state.traceParent())});
    }
}
