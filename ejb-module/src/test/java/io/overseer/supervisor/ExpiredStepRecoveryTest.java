package io.overseer.supervisor;

import org.mockito.Spy;
import io.overseer.platform.Tracing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.overseer.platform.Clocks;
import io.overseer.platform.HeldLease;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import io.overseer.messaging.DispatchQueue;
import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
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
 * The supervisor's recovery of one expired attempt, with its collaborators mocked, the clock injected
 * and the order a real {@link OrderState}: it fences on the lease before anything else, leaves an order
 * that is not (or no longer) expired alone, and otherwise decides by the step's policy — retry after the
 * backoff (announced for then), compensate (announced now), or give up to an operator (alerted).
 */
@ExtendWith(MockitoExtension.class)
class ExpiredStepRecoveryTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 24, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final Duration COMPLETE_BY = Duration.ofSeconds(30);
    private static final OffsetDateTime EXPIRED = T0.plus(COMPLETE_BY).plusSeconds(1);
    private static final HeldLease LEASE = new HeldLease(Supervisor.LEASE, "node-b", 3);
    private static final StepDefinition RESERVE = new StepDefinition("reserve", "reserve-inventory", "release-inventory",
            COMPLETE_BY, 1, Duration.ofSeconds(2), Duration.ofSeconds(10), OnExhausted.COMPENSATE);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(RESERVE,
            new StepDefinition("charge", "charge-payment", "refund-payment", COMPLETE_BY, 0, null, null, OnExhausted.COMPENSATE),
            new StepDefinition("audit", "audit", null, COMPLETE_BY, 0, null, null, OnExhausted.ERROR)));
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");
    private static final Actor AGENT = Actor.of(Actor.Kind.agent, "remote");

    @Mock
    StateStore store;
    @Mock
    WorkflowRegistry workflows;
    @Mock
    DispatchQueue dispatchQueue;
    @Mock
    InstanceIdentity instance;
    @Mock
    Clocks clocks;
    @Mock
    JobLease leases;
    @Spy
    Tracing tracing = Tracing.off();
    @InjectMocks
    ExpiredStepRecovery recovery;

    @BeforeEach
    void wiring() {
        lenient().when(clocks.now()).thenReturn(EXPIRED);
        lenient().when(instance.id()).thenReturn("node-b");
        lenient().when(workflows.get("order", ORDER.version())).thenReturn(ORDER);
    }

    @Test
    void aDeposedSupervisorIsRefusedBeforeItReadsAnything() throws Exception {
        doThrow(new LeaseLostException(LEASE)).when(leases).fence(LEASE);

        assertThrows(LeaseLostException.class, () -> recovery.recover("o-1", LEASE));

        verifyNoInteractions(store, dispatchQueue);
    }

    @Test
    void anOrderGoneOrNotExpiredUnderItsLockIsLeftAlone() throws Exception {
        when(store.lock("gone")).thenReturn(Optional.empty());
        OrderState answeredMeanwhile = claimed();
        when(clocks.now()).thenReturn(T0.plus(COMPLETE_BY)); // its complete-by, not past it
        when(store.lock("o-1")).thenReturn(Optional.of(answeredMeanwhile));

        assertFalse(recovery.recover("gone", LEASE));
        assertFalse(recovery.recover("o-1", LEASE));

        verify(leases, org.mockito.Mockito.times(2)).fence(LEASE);
        assertEquals(ProcessState.Processing, answeredMeanwhile.processState());
        verify(store, never()).saveHistory(any());
        verifyNoInteractions(dispatchQueue);
    }

    @Test
    void aFirstExpiryIsRetriedAfterTheStepsBackoffAndAnnouncedForThen() throws Exception {
        OrderState state = claimed();
        when(store.lock("o-1")).thenReturn(Optional.of(state));
        Duration backoff = RecoveryPolicy.of(RESERVE, false).onExpired(1).delay();

        assertTrue(recovery.recover("o-1", LEASE));

        assertTrue(backoff.compareTo(Duration.ZERO) > 0, "the step asks for a backoff");
        assertEquals(ProcessState.Pending, state.processState());
        assertEquals(EXPIRED.plus(backoff), state.notBefore());
        assertEquals(1, state.failureCount());
        verify(dispatchQueue).announce("o-1", backoff);
        verify(store).saveHistory(state);
    }

    @Test
    void anExpiryPastTheRetriesOfACompensatingStepStartsTheUndoNow() throws Exception {
        OrderState state = reserveDoneChargeRunning();
        when(store.lock("o-1")).thenReturn(Optional.of(state));

        assertTrue(recovery.recover("o-1", LEASE), "charge has no retries: it gives up at its first expiry");

        assertEquals(ProcessState.Compensating, state.processState());
        verify(dispatchQueue).announce("o-1", Duration.ZERO);
    }

    @Test
    void anExpiryPastTheRetriesOfAnErrorStepLeavesTheOrderToAnOperatorAndAlerts() throws Exception {
        OrderState state = reserveDoneChargeRunning();
        Attempt charge = runningAttempt(state);
        state.succeed("node-a", charge.epoch(), charge.stepSeq(), T0.plusSeconds(3), ORDER, AGENT, PausedDispatch.NONE); // audit starts at T0+3s
        when(clocks.now()).thenReturn(T0.plusSeconds(3).plus(COMPLETE_BY).plusSeconds(1));
        when(store.lock("o-1")).thenReturn(Optional.of(state));

        assertTrue(recovery.recover("o-1", LEASE));

        assertEquals(ProcessState.Error, state.processState());
        verify(store).saveHistory(state); // its move to Error, stored, raises the alert (NeedsOperatorAlert)
        verify(dispatchQueue, never()).announce(anyString(), any());
        verify(dispatchQueue, never()).announce(anyString());
    }

    /** Reserve claimed at T0 by node-a, to complete by T0 + 30 s. */
    private static OrderState claimed() {
        OrderState state = OrderState.pending("o-1", ORDER, T0.minusSeconds(1), Actor.of(Actor.Kind.submission, "node-a"), null);
        state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE);
        return state;
    }

    /** Reserve completed at T0 + 1 s; charge running from then (to complete by T0 + 31 s). */
    private static OrderState reserveDoneChargeRunning() {
        OrderState state = OrderState.pending("o-1", ORDER, T0.minusSeconds(1), Actor.of(Actor.Kind.submission, "node-a"), null);
        Attempt reserve = state.claim("node-a", T0.minusSeconds(1), ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        state.succeed("node-a", reserve.epoch(), reserve.stepSeq(), T0, ORDER, AGENT, PausedDispatch.NONE);
        return state;
    }

    private static Attempt runningAttempt(OrderState state) {
        var step = state.steps().stream().filter(s -> s.lockedBy() != null).findFirst().orElseThrow();
        return new Attempt("o-1", state.epoch(), step.seq(), null, step.name(), null, false, null, null, null, java.util.Map.of());
    }
}
