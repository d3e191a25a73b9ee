package io.overseer.statestore;

import io.overseer.workflow.WorkflowDefinition;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of a stage's waiting steps may start now, decided before the record moves: a step whose operation
 * is paused does not start (the record parks on the first such operation), nor one whose own retry's
 * backoff is not over, nor one over its operation's flow limit (the record waits for the limit that frees
 * soonest). A wait for an event calls nothing, so no pause or limit holds it.
 *
 * <p>Every pause is looked at first, because admitting a step takes a slot of its limit
 * ({@link FlowLimiter#admit}): a step that a pause holds must not take one.
 *
 * @param admitted    the steps that start now
 * @param parkedOn    the paused operation that holds a step, or null
 * @param limitedOn   the operation whose flow limit holds a step (the one free soonest), or null
 * @param limitedUntil when that limit frees a slot, or null
 * @param notDueUntil the earliest end of a held step's own backoff, or null
 */
record StageAdmission(List<StepState> admitted, String parkedOn, String limitedOn, OffsetDateTime limitedUntil,
                      OffsetDateTime notDueUntil) {

    static StageAdmission of(List<StepState> waiting, WorkflowDefinition definition, PausedDispatch paused,
                             OffsetDateTime now) {
        String parkedOn = waiting.stream().map(step -> definition.step(step.name()).operation())
                .filter(operation -> operation != null && paused.holds(operation)).findFirst().orElse(null);
        List<StepState> admitted = new ArrayList<>();
        String limitedOn = null;
        OffsetDateTime limitedUntil = null;
        OffsetDateTime notDueUntil = null;
        for (StepState step : waiting) {
            String operation = definition.step(step.name()).operation();
            if (operation != null && paused.holds(operation)) {
                continue;
            }
            if (step.dueAt() != null && step.dueAt().isAfter(now)) {
                notDueUntil = Waiting.earliest(notDueUntil, step.dueAt());
                continue;
            }
            OffsetDateTime until = paused.admit(operation, now);
            if (until == null) {
                admitted.add(step);
            } else if (limitedUntil == null || until.isBefore(limitedUntil)) {
                limitedUntil = until;
                limitedOn = operation;
            }
        }
        return new StageAdmission(List.copyOf(admitted), parkedOn, limitedOn, limitedUntil, notDueUntil);
    }

    /** Whether a pause or a flow limit holds one of the steps. */
    boolean holdsAny() {
        return parkedOn != null || limitedOn != null;
    }

    /** What the history says of the hold: the pause, which wins, or the limit. */
    String heldReason() {
        return parkedOn != null ? parkedReason(parkedOn) : throttledReason(limitedOn);
    }

    /** The record's wait while held branches wait beside running ones: claimable again when the limit frees. */
    Waiting heldBeside(OffsetDateTime now) {
        return Waiting.held(parkedOn, limitedOn, limitedUntil != null ? limitedUntil : now).due(notDueUntil);
    }

    static String parkedReason(String operation) {
        return "waits: dispatch of " + operation + " is paused";
    }

    static String throttledReason(String operation) {
        return "waits: flow limit of " + operation;
    }
}
