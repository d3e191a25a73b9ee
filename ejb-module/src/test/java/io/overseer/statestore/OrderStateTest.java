package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class OrderStateTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 21, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final OrderState state = OrderState.pending("o-1", "order", List.of("charge-payment"), T0);

    @Test
    void newRecordIsPendingUnlockedWithoutFailures() {
        assertEquals(ProcessState.Pending, state.processState());
        assertNull(state.lockedBy());
        assertNull(state.completeBy());
        assertEquals(0, state.failureCount());
        assertEquals(StepStatus.NotStarted, state.steps().get(0).state());
    }

    @Test
    void claimLocksSetsCompleteByAndStartsTheStep() {
        Attempt attempt = state.claim("node-a", T0, LEASE);

        assertEquals(ProcessState.Processing, state.processState());
        assertEquals("node-a", state.lockedBy());
        assertEquals(T0.plus(LEASE), state.completeBy());
        assertEquals(1, attempt.epoch());
        assertEquals("charge-payment", attempt.stepName());
        assertEquals(StepStatus.Running, state.steps().get(0).state());
        assertEquals(1, state.steps().get(0).attempts());
    }

    @Test
    void aClaimedRecordCannotBeClaimedAgain() {
        state.claim("node-a", T0, LEASE);
        assertThrows(IllegalTransitionException.class, () -> state.claim("node-b", T0, LEASE));
        assertEquals("node-a", state.lockedBy());
    }

    @Test
    void completingTheLastStepProcessesTheOrder() {
        Attempt attempt = state.claim("node-a", T0, LEASE);

        assertTrue(state.completeStep(attempt.epoch(), attempt.stepSeq(), T0.plusSeconds(1), LEASE).isEmpty());

        assertEquals(ProcessState.Processed, state.processState());
        assertNull(state.lockedBy());
        assertEquals(StepStatus.Completed, state.steps().get(0).state());
    }

    @Test
    void multiStepWorkflowRunsStepsInOrderWithANewEpochEach() {
        OrderState twoSteps = OrderState.pending("o-2", "order", List.of("a", "b"), T0);
        Attempt first = twoSteps.claim("node-a", T0, LEASE);

        Attempt second = twoSteps.completeStep(first.epoch(), 0, T0.plusSeconds(1), LEASE).orElseThrow();

        assertEquals("b", second.stepName());
        assertEquals(first.epoch() + 1, second.epoch());
        assertEquals(ProcessState.Processing, twoSteps.processState());
        assertFalse(twoSteps.isCurrent(first.epoch(), 0));
    }

    @Test
    void staleRepliesAreRefused() {
        Attempt attempt = state.claim("node-a", T0, LEASE);

        assertFalse(state.isCurrent(attempt.epoch() - 1, 0));
        assertThrows(IllegalTransitionException.class,
                () -> state.completeStep(attempt.epoch() + 1, 0, T0, LEASE));
        assertEquals(ProcessState.Processing, state.processState());
    }

    @Test
    void nontransientFailureSetsError() {
        Attempt attempt = state.claim("node-a", T0, LEASE);

        state.failStep(attempt.epoch(), 0, "HTTP 422", T0.plusSeconds(1));

        assertEquals(ProcessState.Error, state.processState());
        assertEquals("HTTP 422", state.lastError());
        assertEquals(StepStatus.Failed, state.steps().get(0).state());
        assertThrows(IllegalTransitionException.class, () -> state.claim("node-a", T0, LEASE));
    }

    @Test
    void expiryIsOnlyAfterCompleteBy() {
        state.claim("node-a", T0, LEASE);

        assertFalse(state.isExpired(T0.plus(LEASE)));
        assertTrue(state.isExpired(T0.plus(LEASE).plusNanos(1)));
        assertThrows(IllegalTransitionException.class, () -> state.expireAndRetry(T0.plusSeconds(1), T0));
    }

    @Test
    void retryAfterExpiryCountsTheFailureAndResetsToPending() {
        Attempt first = state.claim("node-a", T0, LEASE);
        OffsetDateTime later = T0.plus(LEASE).plusSeconds(1);

        state.expireAndRetry(later, later.plusSeconds(60));

        assertEquals(ProcessState.Pending, state.processState());
        assertNull(state.lockedBy());
        assertEquals(later.plusSeconds(60), state.completeBy());
        assertEquals(1, state.failureCount());
        assertEquals(StepStatus.NotStarted, state.steps().get(0).state());
        Attempt second = state.claim("node-b", later, LEASE);
        assertEquals(first.epoch() + 1, second.epoch());
        assertFalse(state.isCurrent(first.epoch(), 0));
    }

    @Test
    void givingUpAfterExpirySetsError() {
        state.claim("node-a", T0, LEASE);

        state.expireAndGiveUp(T0.plus(LEASE).plusSeconds(1));

        assertEquals(ProcessState.Error, state.processState());
        assertEquals(1, state.failureCount());
        assertEquals(StepStatus.Failed, state.steps().get(0).state());
    }

    @Test
    void finalStatesRefuseEveryTransition() {
        Attempt attempt = state.claim("node-a", T0, LEASE);
        state.completeStep(attempt.epoch(), 0, T0, LEASE);
        OffsetDateTime later = T0.plus(LEASE).plusSeconds(1);

        assertTrue(state.processState().isFinal());
        assertFalse(state.isExpired(later));
        assertThrows(IllegalTransitionException.class, () -> state.expireAndGiveUp(later));
        assertThrows(IllegalTransitionException.class, () -> state.failStep(attempt.epoch(), 0, "x", later));
    }

    @Test
    void aWorkflowNeedsSteps() {
        assertThrows(IllegalArgumentException.class, () -> OrderState.pending("o-3", "order", List.of(), T0));
    }
}
