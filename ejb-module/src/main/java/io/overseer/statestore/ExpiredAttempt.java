package io.overseer.statestore;

import io.overseer.workflow.WorkflowDefinition;
import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * The supervisor's bookkeeping of one expired attempt of an {@link OrderState}: the attempt ended, its
 * failure counted, the history told whether its deadline passed or its agent fell silent, and the recovery
 * policy's decision applied.
 */
record ExpiredAttempt(OrderState order, StepState step, OffsetDateTime now, Actor actor, String cause) {

    /** The expired attempt of {@code step}; its {@code cause} is read before it ends, which clears the deadlines it names. */
    static ExpiredAttempt of(OrderState order, StepState step, OffsetDateTime now, Actor actor) {
        return new ExpiredAttempt(order, step, now, actor, step.claim().expiryCause(now));
    }

    /** See {@link OrderState#recoverExpired}. */
    Optional<OffsetDateTime> recover(ExpiryDecision decision, WorkflowDefinition definition) {
        order.expire(step);
        if (decision.isRetry()) {
            OffsetDateTime retryAt = now.plus(decision.delay());
            retry(retryAt);
            return Optional.of(retryAt);
        }
        giveUp(decision.kind() == ExpiryDecision.Kind.COMPENSATE, definition);
        // Abandoned branches may hold the compensation back until their complete-by (see Undoing).
        return order.isCompensating() ? Optional.of(order.notBefore() == null ? now : order.notBefore()) : Optional.empty();
    }

    /**
     * The step is tried again, not before {@code retryAt}. A branch whose siblings still run waits alone:
     * the order keeps running, and a claim at {@code retryAt} starts the branch again. A waiting record has
     * no deadline: the claim that starts the step again gives it one.
     */
    private void retry(OffsetDateTime retryAt) {
        String reason = cause + " (failure " + order.failureCount() + "); retry";
        order.recordError(cause + " (failure " + order.failureCount() + ")");
        if (order.isCompensating()) {
            order.release();
            order.noteStep(step, now, actor, reason);
            order.waitAs(order.waiting().until(retryAt).lapse(now));
        } else if (!order.records().locked().isEmpty()) {
            order.moveStep(step, StepStatus.NotStarted, now, actor, reason, StepStatus.Running);
            step.dueAt(retryAt); // its own backoff: a claim for another branch does not start it earlier
            // another branch's pause must not hold this one: the next claim checks pauses again
            order.waitAs(order.waiting().unpark().due(retryAt));
            order.summarize();
        } else {
            Waiting next = order.waiting().unpark().due(retryAt).lapse(now); // another branch may wait already
            order.release();
            order.moveStep(step, StepStatus.NotStarted, now, actor, reason, StepStatus.Running);
            step.dueAt(retryAt);
            order.moveTask(ProcessState.Pending, now, actor, reason);
            order.waitAs(next);
        }
    }

    /**
     * The step expired once too often: a compensation ends in Error; a forward step times out, its running
     * siblings are abandoned (see {@link OrderState#fail}), and the order is undone ({@code compensate}) or
     * stops in Error.
     */
    private void giveUp(boolean compensate, WorkflowDefinition definition) {
        String reason = step.name() + ": " + cause + " (" + order.failureCount() + " expiries)";
        if (order.isCompensating()) {
            order.moveStep(step, StepStatus.CompensationFailed, now, actor, reason, StepStatus.Compensating);
            order.toError("compensation of " + reason, now, actor);
            return;
        }
        order.moveStep(step, StepStatus.TimedOut, now, actor, reason, StepStatus.Running);
        order.rank(step);
        Undoing undoing = new Undoing(order);
        OffsetDateTime abandonedUntil = undoing.abandonInFlight(now, actor, "abandoned: " + step.name() + " gave up", definition);
        undoing.giveUp(compensate, reason, null, now, definition, actor, PausedDispatch.NONE, abandonedUntil);
    }
}
