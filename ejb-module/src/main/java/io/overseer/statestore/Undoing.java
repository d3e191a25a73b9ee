package io.overseer.statestore;

import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * The backward run of an {@link OrderState}: giving a step up (Error, or Compensating), abandoning the
 * branches still in flight, undoing the steps done newest first, and the operator's cancel and resubmit.
 *
 * <p>Abandoned branches may still be called by their agents until their complete-by; undoing before then
 * could be overtaken by such a late call (agents never call past the complete-by), so a compensation, or a
 * resubmitted attempt, waits for it: the record's not-before holds it until then.
 */
final class Undoing {

    private final OrderState order;

    Undoing(OrderState order) {
        this.order = order;
    }

    /**
     * A step was given up: the order stops in Error, or starts undoing ({@code compensate}); either waits for
     * the abandoned calls until {@code abandonedUntil}. A compensation starts at once, held by {@code owner},
     * if nothing holds it back and an owner applies this (a scheduler; the supervisor leaves it to one).
     */
    Optional<Attempt> giveUp(boolean compensate, String reason, String owner, OffsetDateTime now,
                             WorkflowDefinition definition, Actor actor, PausedDispatch paused, OffsetDateTime abandonedUntil) {
        order.release();
        if (!compensate) {
            order.toError(reason, now, actor);
            // Kept in Error (which no poller claims): a cancel's undo, or a resubmitted attempt, must not
            // start before an abandoned branch's agent stops calling.
            order.waitAs(order.waiting().clear().until(abandonedUntil));
            return Optional.empty();
        }
        order.recordError(reason);
        order.moveTask(ProcessState.Compensating, now, actor, reason);
        // a held branch's pause or limit no longer holds anything: it is not started any more
        order.waitAs(order.waiting().clear().until(abandonedUntil));
        return owner == null || abandonedUntil != null ? finishIfNothingToUndo(now, definition, actor)
                : continueWith(owner, now, definition, paused);
    }

    /**
     * Abandons what is in flight: running attempts (their late replies will be stale) and steps reset after
     * expired attempts (one of which may have been applied) become TimedOut, to be undone with the completed
     * steps. Returns until when an abandoned call may still be made (the latest complete-by of the calls
     * abandoned), or null if none can: a wait for an event has no agent that could still be calling.
     */
    OffsetDateTime abandonInFlight(OffsetDateTime now, Actor actor, String reason, WorkflowDefinition definition) {
        OffsetDateTime until = null;
        for (StepState step : order.records().inOrder()) {
            if (step.isLocked()) {
                if (!definition.step(step.name()).awaitsEvent() && step.completeBy() != null && step.completeBy().isAfter(now)
                        && (until == null || step.completeBy().isAfter(until))) {
                    until = step.completeBy();
                }
                step.unlock();
                order.moveStep(step, StepStatus.TimedOut, now, actor, reason, StepStatus.Running);
                order.rank(step);
            } else if (step.state() == StepStatus.NotStarted && step.attempts() > 0) {
                order.moveStep(step, StepStatus.TimedOut, now, actor, "earlier attempts expired; outcome unknown",
                        StepStatus.NotStarted);
                order.rank(step);
            }
        }
        return until;
    }

    /** A compensation ended well: the next one starts, held by {@code owner}, or the order is Compensated. */
    Optional<Attempt> continueWith(String owner, OffsetDateTime now, WorkflowDefinition definition, PausedDispatch paused) {
        Optional<Attempt> next = finishIfNothingToUndo(now, definition, Actor.of(Actor.Kind.scheduler, owner));
        return order.isCompensating()
                ? start(owner, now, definition, Actor.of(Actor.Kind.scheduler, owner), paused)
                : next;
    }

    Optional<Attempt> finishIfNothingToUndo(OffsetDateTime now, WorkflowDefinition definition, Actor actor) {
        if (order.records().nextToCompensate(definition).isEmpty()) {
            order.release();
            order.moveTask(ProcessState.Compensated, now, actor, "every completed step undone");
        }
        return Optional.empty();
    }

    /**
     * Starts the next compensation, newest step first — unless its operation is paused (the record parks)
     * or over its flow limit (the record waits for it).
     */
    Optional<Attempt> start(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                            PausedDispatch paused) {
        StepState step = order.records().nextToCompensate(definition)
                .orElseThrow(() -> order.refusal("start a compensation (none left)"));
        StepDefinition spec = definition.step(step.name());
        String operation = spec.compensationOperation().orElseThrow();
        if (paused.holds(operation)) {
            order.release();
            order.park(operation, now, actor);
            return Optional.empty();
        }
        OffsetDateTime limitedUntil = paused.admit(operation, now);
        if (limitedUntil != null) {
            order.release();
            order.throttle(operation, limitedUntil, now, actor);
            return Optional.empty();
        }
        if (step.state() != StepStatus.Compensating) {
            order.moveStep(step, StepStatus.Compensating, now, actor, "undoing", StepStatus.Completed, StepStatus.TimedOut);
        }
        return Optional.of(order.lockAttempt(step, spec, true, owner, now, definition, paused));
    }

    /** See {@link OrderState#resubmit}. */
    void resubmit(OffsetDateTime now, Actor operator, String reason) {
        if (order.processState() != ProcessState.Error) {
            throw order.refusal("resubmit (only an order in Error)");
        }
        Optional<StepState> compensation = order.records().firstIn(StepStatus.CompensationFailed);
        if (compensation.isPresent()) {
            compensation.get().clearFailures();
            order.moveStep(compensation.get(), StepStatus.Compensating, now, operator, reason, StepStatus.CompensationFailed);
            order.moveTask(ProcessState.Compensating, now, operator, reason);
        } else {
            List<StepState> failed = order.records().allIn(StepStatus.Failed, StepStatus.TimedOut);
            if (failed.isEmpty()) {
                throw order.refusal("find the failed step");
            }
            for (StepState step : failed) {
                step.clearFailures();
                step.dueAt(null);
                order.moveStep(step, StepStatus.NotStarted, now, operator, reason, StepStatus.Failed, StepStatus.TimedOut);
            }
            order.moveTask(ProcessState.Pending, now, operator, reason);
        }
        order.recordError(null);
        order.waitAs(order.waiting().lapse(now)); // an abandoned branch's call may still run
    }

    /** See {@link OrderState#cancel}. */
    void cancel(OffsetDateTime now, WorkflowDefinition definition, Actor operator, String reason) {
        ProcessState state = order.processState();
        if (state == ProcessState.Error && order.records().firstIn(StepStatus.CompensationFailed).isPresent()) {
            resubmit(now, operator, reason);
            return;
        }
        if (state != ProcessState.Pending && state != ProcessState.Processing && state != ProcessState.Error) {
            throw order.refusal("cancel");
        }
        OffsetDateTime kept = state == ProcessState.Error ? order.waiting().lapse(now).notBefore() : null;
        OffsetDateTime abandoned = abandonInFlight(now, operator, "abandoned: " + reason, definition);
        order.release();
        // it no longer waits for its forward step (the latest abandoned call aside); its compensations may park again
        order.waitAs(order.waiting().clear().until(kept == null || abandoned != null && abandoned.isAfter(kept) ? abandoned : kept));
        order.recordError("cancelled: " + reason);
        order.moveTask(ProcessState.Compensating, now, operator, reason);
        finishIfNothingToUndo(now, definition, operator);
    }
}
