package io.overseer.notification;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.PausedDispatch;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which transitions a submitter hears about, driven through the real state machine. */
class StatusEventTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 21, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");
    private static final Actor AGENT = Actor.of(Actor.Kind.agent, "remote");
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            step("reserve", "release"), step("charge", "refund")));

    private static StepDefinition step(String name, String compensation) {
        return new StepDefinition(name, name, compensation, Duration.ofSeconds(30), 2, null, null, OnExhausted.COMPENSATE);
    }

    @Test
    void aProcessedOrderIsReceivedEachStepCompletedThenProcessed() {
        OrderState state = OrderState.pending("o-1", "order", ORDER.stepNames(), T0, SCHEDULER);
        List<HistoryEntry> history = new ArrayList<>(state.drainHistory());
        Attempt first = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt second = state.succeed("node-a", first.epoch(), first.stepSeq(), T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        state.succeed("node-a", second.epoch(), second.stepSeq(), T0, ORDER, AGENT, PausedDispatch.NONE);
        history.addAll(state.drainHistory());

        assertEquals(List.of(StatusEvent.RECEIVED, StatusEvent.STEP_COMPLETED, StatusEvent.STEP_COMPLETED,
                StatusEvent.PROCESSED), events(history));
    }

    @Test
    void aRefusedStepIsCompensatingThenEachUndoThenCompensated() {
        OrderState state = OrderState.pending("o-1", "order", ORDER.stepNames(), T0, SCHEDULER);
        state.drainHistory();
        Attempt first = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt second = state.succeed("node-a", first.epoch(), first.stepSeq(), T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        Attempt undo = state.fail("node-a", second.epoch(), second.stepSeq(), "422", T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        state.succeed("node-a", undo.epoch(), undo.stepSeq(), T0, ORDER, AGENT, PausedDispatch.NONE);

        assertEquals(List.of(StatusEvent.STEP_COMPLETED, StatusEvent.COMPENSATING, StatusEvent.STEP_COMPENSATED,
                StatusEvent.COMPENSATED), events(state.drainHistory()));
    }

    private static List<StatusEvent> events(List<HistoryEntry> history) {
        return history.stream().map(StatusEvent::of).flatMap(Optional::stream).toList();
    }

    @Test
    void aParkedOrderTellsTheSubmitterNothingNew() {
        OrderState state = OrderState.pending("o-p", "w",
                List.of("charge"), OffsetDateTime.now(ZoneOffset.UTC),
                Actor.of(Actor.Kind.submission, "n"));
        state.drainHistory();
        var definition = new WorkflowDefinition("w", List.of(new StepDefinition(
                "charge", "charge", null, Duration.ofSeconds(30), 2, null, null,
                OnExhausted.ERROR)));
        state.claim("n", OffsetDateTime.now(ZoneOffset.UTC), definition,
                Actor.of(Actor.Kind.scheduler, "n"), "claimed",
                new PausedDispatch(Set.of("charge")));

        List<HistoryEntry> parked = state.drainHistory();
        assertEquals(1, parked.size());
        assertEquals(Optional.empty(), StatusEvent.of(parked.get(0)));
    }
}
