package io.overseer.statestore;

import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The forward run of an {@link OrderState}: after a step completes, what follows — Processed, a wait for
 * the branches still running, or the next stage; and the start of a stage — the first step not completed,
 * or every waiting branch of its parallel group — as far as {@link StageAdmission} admits its steps.
 */
final class Stage {

    private final OrderState order;

    Stage(OrderState order) {
        this.order = order;
    }

    /**
     * After a step completed: the order is Processed; or, while branches of its group still run, it waits
     * for them; or its next step (or group) starts, parks on a pause, or waits for a flow limit or for a
     * branch's retry.
     */
    List<Attempt> advance(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                          PausedDispatch paused) {
        StepRecords records = order.records();
        if (records.allCompleted()) {
            order.release();
            order.moveTask(ProcessState.Processed, now, actor, "every step completed");
            return List.of();
        }
        if (!records.locked().isEmpty()) {
            order.summarize();
            return List.of();
        }
        Actor scheduler = Actor.of(Actor.Kind.scheduler, owner);
        if (order.waiting().isLater(now)) { // a branch waits for its retry, or for a flow limit
            Waiting due = order.waiting();
            order.release();
            order.waitAs(due); // nothing runs; the not-before stays: it is when that branch is due
            order.moveTask(ProcessState.Pending, now, scheduler, "waits: a branch starts again at " + due.notBefore());
            return List.of();
        }
        return start(owner, now, definition, scheduler, paused, null);
    }

    /**
     * Starts the waiting steps of the current stage that {@link StageAdmission} admits. If nothing runs
     * then, the record waits as a whole (see {@link #waitAsAWhole}). If other branches run, the order keeps
     * running and stays claimable for the held ones (a not-before, and the pause's parking if one holds).
     * {@code claimReason}: the claim of a Pending record that this is, said in its move to Processing.
     */
    List<Attempt> start(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                        PausedDispatch paused, String claimReason) {
        StageAdmission admission = StageAdmission.of(waiting(definition), definition, paused, now);
        if (admission.admitted().isEmpty() && order.records().locked().isEmpty()) {
            waitAsAWhole(admission, now, actor);
            return List.of();
        }
        Waiting was = order.waiting();
        if (order.processState() == ProcessState.Pending) {
            order.moveTask(ProcessState.Processing, now, actor, claimReason);
        }
        List<Attempt> attempts = new ArrayList<>();
        for (StepState step : admission.admitted()) {
            StepDefinition spec = definition.step(step.name());
            order.moveStep(step, StepStatus.Running, now, actor, spec.awaitsEvent() ? "waits for event " + spec.event() : "started",
                    StepStatus.NotStarted);
            attempts.add(order.lockAttempt(step, spec, false, owner, now, definition, paused));
        }
        if (admission.holdsAny()) { // a branch is held while others run: said once, not at every claim
            if (!Objects.equals(admission.parkedOn(), was.pausedOn()) || !Objects.equals(admission.limitedOn(), was.throttledOn())) {
                order.noteTask(now, actor, admission.heldReason());
            }
            order.waitAs(admission.heldBeside(now));
        } else { // a branch's backoff is not over: the record is claimed again for it then
            order.waitAs(order.waiting().due(admission.notDueUntil()));
        }
        return attempts;
    }

    /**
     * Nothing was admitted and nothing runs: the record waits as a whole, Pending (or Compensating with
     * nobody on it) — parked on the pause, or with the limit's not-before, or until the first branch's
     * backoff is over.
     */
    private void waitAsAWhole(StageAdmission admission, OffsetDateTime now, Actor actor) {
        boolean ended = order.processState() == ProcessState.Processing; // the last branch that ran has just ended
        if (!admission.holdsAny()) { // only branches whose backoff is not over: the record waits for the first of them
            if (ended) {
                order.release();
                order.moveTask(ProcessState.Pending, now, actor, "waits: a branch starts again at " + admission.notDueUntil());
            }
            order.waitAs(order.waiting().until(admission.notDueUntil()));
        } else if (ended) {
            order.release();
            order.moveTask(ProcessState.Pending, now, actor, admission.heldReason());
            order.waitAs(admission.parkedOn() != null ? order.waiting().park(admission.parkedOn())
                    : order.waiting().throttle(admission.limitedOn(), admission.limitedUntil()));
        } else if (admission.parkedOn() != null) {
            order.park(admission.parkedOn(), now, actor);
        } else {
            order.throttle(admission.limitedOn(), admission.limitedUntil(), now, actor);
        }
    }

    /**
     * The steps of the current stage not started yet: the first step not completed, or every waiting
     * branch of its parallel group.
     */
    private List<StepState> waiting(WorkflowDefinition definition) {
        StepRecords records = order.records();
        StepState first = records.inOrder().stream().filter(s -> s.state() != StepStatus.Completed).findFirst()
                .orElseThrow(() -> order.refusal("start a step (none left)"));
        List<String> stage = definition.stage(first.name());
        List<StepState> waiting = records.allIn(StepStatus.NotStarted).stream().filter(s -> stage.contains(s.name())).toList();
        if (waiting.isEmpty()) {
            throw order.refusal("start a step (none waiting in " + stage + ")");
        }
        return waiting;
    }
}
