package io.overseer.statestore;

import io.overseer.workflow.WorkflowDefinition;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The lookups {@link OrderState} makes over its steps' records, in workflow order however they were read:
 * a batch read joins them in, where {@code @OrderBy} is not promised, and the state machine walks them by
 * position. A view made for one transition; it changes nothing.
 */
final class StepRecords {

    private final List<StepState> steps;

    StepRecords(List<StepState> steps) {
        List<StepState> ordered = new ArrayList<>(steps);
        ordered.sort(Comparator.comparingInt(StepState::seq));
        this.steps = ordered;
    }

    /** Every step, in workflow order. */
    List<StepState> inOrder() {
        return steps;
    }

    /** The steps an attempt runs on now: one, or branches of a parallel group. */
    List<StepState> locked() {
        return steps.stream().filter(StepState::isLocked).toList();
    }

    /** The steps whose running attempt has expired (a parallel group may have several). */
    List<StepState> expired(OffsetDateTime now) {
        return steps.stream().filter(step -> step.isExpired(now)).toList();
    }

    /** The step named, if an attempt of it runs. */
    Optional<StepState> running(String name) {
        return steps.stream().filter(step -> step.name().equals(name) && step.isLocked()).findFirst();
    }

    /**
     * The running attempt at step {@code seq} started at {@code epoch}. One started before epochs were kept
     * per step (V16) has the order's, {@code orderEpoch}.
     */
    Optional<StepState> attempt(long epoch, int seq, long orderEpoch) {
        return steps.stream().filter(step -> step.seq() == seq && step.isLocked()
                && (step.epoch() == 0 ? orderEpoch : step.epoch()) == epoch).findFirst();
    }

    /** The running attempt at step {@code seq}, whatever its epoch. */
    Optional<StepState> lockedAt(int seq) {
        return steps.stream().filter(step -> step.seq() == seq && step.isLocked()).findFirst();
    }

    /** The first step (in workflow order) in one of these states. */
    Optional<StepState> firstIn(StepStatus... states) {
        return steps.stream().filter(step -> List.of(states).contains(step.state())).findFirst();
    }

    /** Every step in one of these states, in workflow order. */
    List<StepState> allIn(StepStatus... states) {
        return steps.stream().filter(step -> List.of(states).contains(step.state())).toList();
    }

    boolean allCompleted() {
        return steps.stream().allMatch(step -> step.state() == StepStatus.Completed);
    }

    /**
     * An unfinished compensation first, then the step that needs undoing and can be undone that completed
     * (or was abandoned) last: branches of a group complete in any order, and are undone in the reverse of
     * it. Steps finished before ranks were kept (V16) rank lowest, newest first by position, as then.
     */
    Optional<StepState> nextToCompensate(WorkflowDefinition definition) {
        Optional<StepState> unfinished = firstIn(StepStatus.Compensating);
        if (unfinished.isPresent()) {
            return unfinished;
        }
        return steps.stream()
                .filter(s -> s.state().needsCompensation() && definition.step(s.name()).compensationOperation().isPresent())
                .max(Comparator.comparingInt(StepState::doneRank).thenComparingInt(StepState::seq));
    }

    /** The bodies of the events received so far, by event name: every attempt hands them to its agent. */
    Map<String, String> receivedEvents(WorkflowDefinition definition) {
        if (steps.stream().allMatch(step -> step.eventPayload() == null)) {
            return Map.of(); // most orders: no map built per attempt on the hot path
        }
        Map<String, String> events = new TreeMap<>();
        for (StepState step : steps) {
            if (step.eventPayload() != null) {
                events.put(definition.step(step.name()).event(), step.eventPayload());
            }
        }
        return events;
    }
}
