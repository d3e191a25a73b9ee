package io.overseer.admin;

import org.mockito.Spy;
import io.overseer.platform.Tracing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.overseer.platform.Clocks;
import io.overseer.messaging.DispatchQueue;
import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.IllegalTransitionException;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.PausedDispatch;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InjectMocks;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * What an operator's resubmit and cancel decide, with the store, the registry, the order queue, the audit
 * log and the clock mocked and the order a real {@link OrderState}: the order moved and its history saved,
 * a scheduler told when (at once, or once an abandoned call's complete-by has passed) or not at all, the
 * action audited — and a refused action changes nothing outside the record.
 */
@ExtendWith(MockitoExtension.class)
class OperatorActionsTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 24, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final OffsetDateTime NOW = T0.plusSeconds(10);
    private static final Duration COMPLETE_BY = Duration.ofSeconds(30);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            new StepDefinition("reserve", "reserve-inventory", "release-inventory", COMPLETE_BY, 2, null, null, OnExhausted.COMPENSATE),
            new StepDefinition("charge", "charge-payment", "refund-payment", COMPLETE_BY, 2, null, null, OnExhausted.ERROR)));
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");
    private static final Actor AGENT = Actor.of(Actor.Kind.agent, "remote");

    @Mock
    StateStore store;
    @Mock
    WorkflowRegistry workflows;
    @Mock
    DispatchQueue dispatchQueue;
    @Mock
    Clocks clocks;
    @Mock
    AuditLog audit;
    @Spy
    Tracing tracing = Tracing.off();
    @InjectMocks
    OperatorActions actions;

    @BeforeEach
    void now() {
        lenient().when(clocks.now()).thenReturn(NOW);
        lenient().when(workflows.get("order", ORDER.version())).thenReturn(ORDER);
    }

    @Test
    void anUnknownOrderIsNeitherResubmittedNorCancelled() {
        when(store.lock("nobody")).thenReturn(Optional.empty());

        assertFalse(actions.resubmit("nobody", "ops", "retry"));
        assertFalse(actions.cancel("nobody", "ops", "not wanted"));
        verifyNoInteractions(dispatchQueue, audit);
        verify(store, never()).saveHistory(any());
    }

    @Test
    void aResubmittedOrderInErrorWaitsForASchedulerAtOnceAndTheActionIsAudited() {
        OrderState state = inError();
        when(store.lock("o-1")).thenReturn(Optional.of(state));

        assertTrue(actions.resubmit("o-1", "ops", "the payment provider is back"));

        assertEquals(ProcessState.Pending, state.processState());
        verify(store).saveHistory(state);
        verify(dispatchQueue).announce("o-1", Duration.ZERO);
        verify(audit).record("ops", "resubmit", "o-1", "the payment provider is back", "now Pending");
    }

    @Test
    void resubmittingAnOrderNotInErrorIsRefusedAndNothingIsAnnouncedOrAudited() {
        OrderState state = pending();
        when(store.lock("o-1")).thenReturn(Optional.of(state));

        assertThrows(IllegalTransitionException.class, () -> actions.resubmit("o-1", "ops", "again"));

        assertEquals(ProcessState.Pending, state.processState());
        verifyNoInteractions(dispatchQueue, audit);
        verify(store, never()).saveHistory(any());
    }

    @Test
    void cancellingAnOrderThatDidNothingEndsItWithoutASchedulersHelp() {
        OrderState state = pending();
        when(store.lock("o-1")).thenReturn(Optional.of(state));

        assertTrue(actions.cancel("o-1", "ops", "not wanted"));

        assertEquals(ProcessState.Compensated, state.processState());
        verify(store).saveHistory(state);
        verify(dispatchQueue, never()).announce(anyString(), any());
        verify(audit).record("ops", "cancel", "o-1", "not wanted", "now Compensated");
    }

    @Test
    void cancellingAnOrderInErrorUndoesItsCompletedStepAtOnce() {
        OrderState state = inError();
        when(store.lock("o-1")).thenReturn(Optional.of(state));

        assertTrue(actions.cancel("o-1", "ops", "customer withdrew"));

        assertEquals(ProcessState.Compensating, state.processState());
        verify(dispatchQueue).announce("o-1", Duration.ZERO);
        verify(audit).record("ops", "cancel", "o-1", "customer withdrew", "now Compensating");
    }

    @Test
    void cancellingAnOrderWithACallUnderWayWaitsForThatCallsCompleteByBeforeUndoing() {
        OrderState state = pending();
        state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE); // reserve runs until T0 + 30 s: its outcome is unknown
        when(store.lock("o-1")).thenReturn(Optional.of(state));

        assertTrue(actions.cancel("o-1", "ops", "customer withdrew"));

        assertEquals(ProcessState.Compensating, state.processState());
        verify(dispatchQueue).announce("o-1", Duration.between(NOW, T0.plus(COMPLETE_BY)));
    }

    private static OrderState pending() {
        return OrderState.pending("o-1", ORDER, T0, Actor.of(Actor.Kind.submission, "node-a"), null);
    }

    /** Reserve completed, charge refused for good: Error (charge gives up with "error"). */
    private static OrderState inError() {
        OrderState state = pending();
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt charge = state.succeed("node-a", reserve.epoch(), reserve.stepSeq(), T0.plusSeconds(1), ORDER, AGENT, PausedDispatch.NONE).get(0);
        state.fail("node-a", charge.epoch(), charge.stepSeq(), "card declined", T0.plusSeconds(2), ORDER, AGENT, PausedDispatch.NONE);
        assertEquals(ProcessState.Error, state.processState());
        return state;
    }
}
