package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OrderStateTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 21, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");
    private static final Actor AGENT = Actor.of(Actor.Kind.agent, "remote");
    private static final Actor SUPERVISOR = Actor.of(Actor.Kind.supervisor, "node-a");

    private static StepDefinition step(String name, String compensation, OnExhausted onExhausted) {
        return new StepDefinition(name, name, compensation, LEASE, 2, null, null, onExhausted);
    }

    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            step("reserve", "release", OnExhausted.COMPENSATE),
            step("charge", "refund", OnExhausted.COMPENSATE),
            step("ship", "cancel", OnExhausted.COMPENSATE)));
    private static final WorkflowDefinition SINGLE = new WorkflowDefinition("single",
            List.of(step("charge", null, OnExhausted.ERROR)));

    /** The supervisor retries the step's expired attempt, due at {@code retryAt}, as the policy's backoff decides. */
    private static void retry(OrderState state, String step, OffsetDateTime now, OffsetDateTime retryAt,
                              WorkflowDefinition workflow) {
        state.recoverExpired(step, ExpiryDecision.retryAfter(Duration.between(now, retryAt)), now, workflow, SUPERVISOR);
    }

    /** The supervisor gives the step's expired attempt up; whether a compensation awaits a scheduler. */
    private static boolean giveUp(OrderState state, String step, OffsetDateTime now, WorkflowDefinition workflow,
                                  ExpiryDecision decision) {
        return state.recoverExpired(step, decision, now, workflow, SUPERVISOR).isPresent();
    }

    private static OrderState pending(WorkflowDefinition workflow) {
        return OrderState.pending("o-1", workflow.name(), workflow.stepNames(), T0,
                Actor.of(Actor.Kind.submission, "node-a"));
    }

    @Test
    void newRecordIsPendingUnlockedWithoutFailuresAndRecordsItsCreation() {
        OrderState state = pending(ORDER);

        assertEquals(ProcessState.Pending, state.processState());
        assertNull(state.lockedBy());
        assertNull(state.completeBy());
        assertEquals(0, state.failureCount());
        assertTrue(state.steps().stream().allMatch(s -> s.state() == StepStatus.NotStarted));
        List<HistoryEntry> history = state.drainHistory();
        assertEquals(1, history.size());
        assertEquals("Pending", history.get(0).toState());
        assertTrue(state.drainHistory().isEmpty(), "drained once");
    }

    @Test
    void aDelayedOrderIsNotClaimableBeforeItsNotBeforeAndCancellingItUndoesNothing() {
        OffsetDateTime startAt = T0.plusMinutes(10);
        OrderState state = OrderState.pending("o-1", ORDER, T0, Actor.of(Actor.Kind.submission, "node-a"), startAt);
        assertEquals(ORDER.version(), state.workflowVersion());
        assertEquals(startAt, state.notBefore());
        assertFalse(state.isClaimable(startAt.minusNanos(1000)));
        assertThrows(IllegalTransitionException.class, () -> state.claim("node-a", T0.plusMinutes(9), ORDER, SCHEDULER, "claimed", PausedDispatch.NONE));
        assertTrue(state.isClaimable(startAt));
        assertTrue(state.drainHistory().get(0).reason().contains("starts at " + startAt), "the history says when");

        assertFalse(state.cancel(T0.plusMinutes(1), ORDER, Actor.of(Actor.Kind.operator, "ops"), "not needed"),
                "no compensation to wait for");
        assertEquals(ProcessState.Compensated, state.processState());
        assertNull(state.notBefore());
        assertTrue(state.steps().stream().allMatch(s -> s.state() == StepStatus.NotStarted && s.attempts() == 0));
    }

    @Test
    void aMissedHeartbeatExpiresTheAttemptBeforeItsCompleteByAndSaysSo() {
        WorkflowDefinition beating = new WorkflowDefinition("beating", List.of(new StepDefinition("audit", "audit", null,
                Duration.ofSeconds(60), 2, null, null, OnExhausted.ERROR, Duration.ofSeconds(3))));
        OrderState state = OrderState.pending("o-1", beating, T0, Actor.of(Actor.Kind.submission, "node-a"), null);
        Attempt attempt = state.claim("node-a", T0, beating, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals(Duration.ofSeconds(3), attempt.heartbeat());
        assertEquals(T0.plusSeconds(3), state.heartbeatBy());
        assertFalse(state.isExpired(T0.plusSeconds(3)));
        assertTrue(state.isExpired(T0.plusSeconds(4)), "silent past its heartbeat, though its complete-by is far");

        retry(state, "audit", T0.plusSeconds(4), T0.plusSeconds(4), beating);

        assertNull(state.heartbeatBy());
        assertEquals(ProcessState.Pending, state.processState());
        assertTrue(state.lastError().startsWith("heartbeat missed (failure 1)"), state.lastError());
        Attempt retry = state.claim("node-b", T0.plusSeconds(5), beating, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals(T0.plusSeconds(8), state.heartbeatBy(), "each attempt starts with a full heartbeat");
        assertTrue(retry.epoch() > attempt.epoch());
    }

    private static final WorkflowDefinition APPROVED = new WorkflowDefinition("approved", List.of(
            step("reserve", "release", OnExhausted.COMPENSATE),
            StepDefinition.awaiting("await-approval", "approval", Duration.ofHours(1), OnExhausted.COMPENSATE),
            step("charge", "refund", OnExhausted.COMPENSATE)));

    @Test
    void aStepWaitingForAnEventStartsNoCallAndTheEventsBodyReachesTheNextAttempt() {
        OrderState state = OrderState.pending("o-1", APPROVED, T0, Actor.of(Actor.Kind.submission, "node-a"), null);
        Attempt reserve = state.claim("node-a", T0, APPROVED, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertThrows(IllegalTransitionException.class, () -> state.receive("approval", "{}", "node-a", T0, APPROVED,
                Actor.of(Actor.Kind.submission, "http:early"), PausedDispatch.NONE), "not waiting yet");

        Attempt wait = state.succeed("node-a", reserve.epoch(), 0, T0.plusSeconds(1), APPROVED, AGENT, PausedDispatch.NONE).get(0);
        assertTrue(wait.awaitsEvent());
        assertNull(wait.operation());
        assertEquals(T0.plusSeconds(1).plusHours(1), state.completeBy(), "the wait's deadline");
        assertTrue(state.awaits("approval", APPROVED));
        assertFalse(state.awaits("other", APPROVED));

        Attempt charge = state.receive("approval", "{\"approvedBy\":\"alice\"}", "node-b", T0.plusSeconds(2), APPROVED,
                Actor.of(Actor.Kind.submission, "http:alice"), PausedDispatch.NONE).get(0);
        assertEquals("charge", charge.operation());
        assertEquals(java.util.Map.of("approval", "{\"approvedBy\":\"alice\"}"), charge.events());
        assertEquals("node-b", state.lockedBy(), "the instance that took the event holds the next attempt");
        assertTrue(state.received("approval", APPROVED));
        assertThrows(IllegalTransitionException.class, () -> state.receive("approval", "{}", "node-a", T0.plusSeconds(3),
                APPROVED, Actor.of(Actor.Kind.submission, "http:again"), PausedDispatch.NONE));
        assertTrue(state.drainHistory().stream().anyMatch(h -> "event approval received".equals(h.reason())));
    }

    @Test
    void aWaitPastItsDeadlineGivesUpAtOnceAndIsNotUndoneNorWaitedOutWhenCancelled() {
        OrderState expired = OrderState.pending("o-1", APPROVED, T0, Actor.of(Actor.Kind.submission, "node-a"), null);
        Attempt reserve = expired.claim("node-a", T0, APPROVED, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        expired.succeed("node-a", reserve.epoch(), 0, T0, APPROVED, AGENT, PausedDispatch.NONE).get(0);
        assertTrue(expired.isExpired(T0.plusHours(2)));
        assertTrue(giveUp(expired, "await-approval", T0.plusHours(2), APPROVED, ExpiryDecision.COMPENSATE), "reserve is to be released");
        Attempt release = expired.claim("node-a", T0.plusHours(2), APPROVED, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals("release", release.operation(), "the wait itself has nothing to undo");

        OrderState cancelled = OrderState.pending("o-2", APPROVED, T0, Actor.of(Actor.Kind.submission, "node-a"), null);
        Attempt first = cancelled.claim("node-a", T0, APPROVED, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        cancelled.succeed("node-a", first.epoch(), 0, T0, APPROVED, AGENT, PausedDispatch.NONE).get(0);
        assertTrue(cancelled.cancel(T0.plusSeconds(5), APPROVED, Actor.of(Actor.Kind.operator, "ops"), "withdrawn"));
        assertNull(cancelled.notBefore(), "no agent could still be calling for a wait: nothing to wait out");
        assertTrue(cancelled.isClaimable(T0.plusSeconds(5)));
    }

    /** Admits {@code admitted} attempts of "charge", then holds every further one until {@code until}. */
    private static PausedDispatch limitedAfter(int admitted, OffsetDateTime until) {
        int[] left = {admitted};
        return PausedDispatch.NONE.limitedBy(new FlowLimiter() {
            @Override
            public boolean limits(String operation) {
                return "charge".equals(operation);
            }

            @Override
            public OffsetDateTime admit(String operation, OffsetDateTime now) {
                return !limits(operation) || left[0]-- > 0 ? null : until;
            }
        });
    }

    @Test
    void aStepOverItsFlowLimitWaitsPendingWithoutAFailureAndStartsWhenAdmitted() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", limitedAfter(0, T0.plusSeconds(1))).get(0);
        List<Attempt> held = state.succeed("node-a", reserve.epoch(), 0, T0, ORDER, AGENT, limitedAfter(0, T0.plusSeconds(1)));

        assertTrue(held.isEmpty());
        assertEquals(ProcessState.Pending, state.processState());
        assertEquals("charge", state.throttledOn());
        assertEquals(T0.plusSeconds(1), state.notBefore());
        assertNull(state.lockedBy());
        assertEquals(0, state.failureCount(), "waiting for a limit is no failure");
        assertFalse(state.isClaimable(T0.plusNanos(500_000_000)));
        long held1 = state.drainHistory().stream().filter(h -> "waits: flow limit of charge".equals(h.reason())).count();
        assertEquals(1, held1);

        assertTrue(state.claim("node-a", T0.plusSeconds(1), ORDER, SCHEDULER, "claimed", limitedAfter(0, T0.plusSeconds(2)))
                .isEmpty(), "still over the limit");
        assertTrue(state.drainHistory().stream().noneMatch(h -> h.reason().startsWith("waits: flow limit")),
                "held again: not said again");
        Attempt charge = state.claim("node-a", T0.plusSeconds(2), ORDER, SCHEDULER, "claimed", limitedAfter(1, null))
                .get(0);
        assertEquals("charge", charge.operation());
        assertNull(state.throttledOn());
        assertEquals(ProcessState.Processing, state.processState());
    }

    @Test
    void claimLocksTaskAndFirstStepAndIncrementsTheEpoch() {
        OrderState state = pending(ORDER);

        Attempt attempt = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);

        assertEquals(ProcessState.Processing, state.processState());
        assertEquals("node-a", state.lockedBy());
        assertEquals(T0.plus(LEASE), state.completeBy());
        assertEquals(new Attempt("o-1", 1, 0, attempt.token(), "reserve", "reserve", false, T0.plus(LEASE), null, null, java.util.Map.of(),
                1, "order", null), attempt);
        assertEquals(32, attempt.token().length(), "128 random bits, hex");
        assertTrue(state.holdsToken(attempt.stepSeq(), attempt.token()));
        assertFalse(state.holdsToken(attempt.stepSeq(), "0".repeat(32)), "a guessed token");
        assertFalse(state.holdsToken(attempt.stepSeq(), null));
        StepState first = state.steps().get(0);
        assertEquals(StepStatus.Running, first.state());
        assertEquals("node-a", first.lockedBy());
        assertEquals(1, first.attempts());
        assertThrows(IllegalTransitionException.class, () -> state.claim("node-b", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE));
    }

    @Test
    void anAttemptHandedBackWaitsForASchedulerAtOnceWithoutAFailureAndItsEpochIsDead() {
        OrderState state = pending(ORDER);
        Attempt a = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        state.drainHistory();

        state.handBack(a.epoch(), 0, "instance shutting down", T0.plusSeconds(1), AGENT);

        assertEquals(ProcessState.Pending, state.processState());
        assertNull(state.lockedBy());
        assertEquals(0, state.failureCount());
        assertEquals(0, state.steps().get(0).failureCount());
        assertEquals(StepStatus.NotStarted, state.steps().get(0).state());
        assertTrue(state.isClaimable(T0.plusSeconds(1)));
        assertEquals(List.of("Running->NotStarted", "Processing->Pending"), state.drainHistory().stream()
                .map(h -> h.fromState() + "->" + h.toState()).toList());
        assertThrows(IllegalTransitionException.class,
                () -> state.succeed("node-a", a.epoch(), 0, T0.plusSeconds(2), ORDER, AGENT, PausedDispatch.NONE), "the handed-back attempt is fenced");

        Attempt b = state.claim("node-b", T0.plusSeconds(2), ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals(a.epoch() + 1, b.epoch());
        assertEquals("reserve", b.operation());
    }

    @Test
    void stepsRunInOrderEachWithANewEpochUntilProcessed() {
        OrderState state = pending(ORDER);
        Attempt a = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);

        Attempt b = state.succeed("node-a", a.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        Attempt c = state.succeed("node-a", b.epoch(), 1, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        List<Attempt> none = state.succeed("node-a", c.epoch(), 2, T0, ORDER, AGENT, PausedDispatch.NONE);

        assertEquals(List.of("charge", "ship"), List.of(b.stepName(), c.stepName()));
        assertEquals(List.of(2L, 3L), List.of(b.epoch(), c.epoch()));
        assertTrue(none.isEmpty());
        assertEquals(ProcessState.Processed, state.processState());
        assertNull(state.lockedBy());
        assertTrue(state.steps().stream().allMatch(s -> s.state() == StepStatus.Completed && s.lockedBy() == null));
    }

    @Test
    void theInstanceThatAppliesAReplyHoldsTheNextAttemptNotTheOneThatClaimed() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        state.drainHistory();

        // node-a died after claiming; node-b takes the reply.
        Attempt charge = state.succeed("node-b", reserve.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);

        assertEquals("node-b", state.lockedBy());
        assertEquals("node-b", state.steps().get(1).lockedBy());
        HistoryEntry started = state.drainHistory().stream()
                .filter(h -> "charge".equals(h.stepName()) && "Running".equals(h.toState())).findFirst().orElseThrow();
        assertEquals("node-b", started.actorName(), "the history names who started the step");

        Attempt release = state.fail("node-c", charge.epoch(), 1, "declined", T0, ORDER, AGENT, PausedDispatch.NONE).get(0);

        assertTrue(release.compensation());
        assertEquals("node-c", state.lockedBy(), "a compensation started on a reply is held by its instance too");
        assertEquals("node-c", state.steps().get(0).lockedBy());
        assertTrue(state.drainHistory().stream().filter(h -> "scheduler".equals(h.actor()))
                .allMatch(h -> "node-c".equals(h.actorName())));
    }

    @Test
    void staleRepliesAreRefused() {
        OrderState state = pending(ORDER);
        Attempt a = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        state.succeed("node-a", a.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE);

        assertFalse(state.isCurrent(a.epoch(), 0));
        assertThrows(IllegalTransitionException.class, () -> state.succeed("node-a", a.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE));
        assertEquals(StepStatus.Running, state.steps().get(1).state());
    }

    @Test
    void aRefusedStepUndoesTheCompletedOnesNewestFirst() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt charge = state.succeed("node-a", reserve.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        Attempt ship = state.succeed("node-a", charge.epoch(), 1, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);

        Attempt refund = state.fail("node-a", ship.epoch(), 2, "HTTP 422", T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        Attempt release = state.succeed("node-a", refund.epoch(), 1, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        List<Attempt> done = state.succeed("node-a", release.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE);

        assertEquals(List.of("refund", "release"), List.of(refund.operation(), release.operation()));
        assertTrue(refund.compensation() && release.compensation());
        assertTrue(done.isEmpty());
        assertEquals(ProcessState.Compensated, state.processState());
        assertEquals(List.of(StepStatus.Compensated, StepStatus.Compensated, StepStatus.Failed),
                state.steps().stream().map(StepState::state).toList());
    }

    @Test
    void aFailedCompensationNeedsAnOperator() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt charge = state.succeed("node-a", reserve.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        Attempt release = state.fail("node-a", charge.epoch(), 1, "declined", T0, ORDER, AGENT, PausedDispatch.NONE).get(0);

        state.fail("node-a", release.epoch(), 0, "HTTP 422", T0, ORDER, AGENT, PausedDispatch.NONE);

        assertEquals(ProcessState.Error, state.processState());
        assertEquals(StepStatus.CompensationFailed, state.steps().get(0).state());
        assertTrue(state.lastError().startsWith("compensation of reserve failed"), state.lastError());
    }

    @Test
    void aRefusedStepWithErrorPolicyStopsInError() {
        OrderState state = pending(SINGLE);
        Attempt a = state.claim("node-a", T0, SINGLE, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);

        assertTrue(state.fail("node-a", a.epoch(), 0, "HTTP 422", T0, SINGLE, AGENT, PausedDispatch.NONE).isEmpty());

        assertEquals(ProcessState.Error, state.processState());
        assertEquals(StepStatus.Failed, state.steps().get(0).state());
    }

    @Test
    void aLongRefusalIsKeptWithinItsColumnsAndTheStepStillFails() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt charge = state.succeed("node-a", reserve.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);

        Attempt release = state.fail("node-a", charge.epoch(), 1, "declined: " + "x".repeat(5000), T0, ORDER, AGENT, PausedDispatch.NONE)
                .get(0);

        assertEquals(StepStatus.Failed, state.steps().get(1).state());
        assertEquals(ProcessState.Compensating, state.processState());
        assertEquals("release", release.operation());
        assertEquals(ReasonText.MAX_LENGTH, state.lastError().length(), "order_state.last_error is VARCHAR(1000)");
        assertTrue(state.lastError().startsWith("charge failed: declined: xxx"), state.lastError());
        assertFitsTheHistory(state);
    }

    @Test
    void aRefusalWithANulCharacterIsStoredWithoutIt() {
        OrderState state = pending(SINGLE);
        Attempt charge = state.claim("node-a", T0, SINGLE, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);

        state.fail("node-a", charge.epoch(), 0, "binary\u0000body", T0, SINGLE, AGENT, PausedDispatch.NONE);

        assertEquals(ProcessState.Error, state.processState());
        assertFalse(state.lastError().contains("\u0000"), "PostgreSQL refuses NUL in text");
        assertTrue(state.drainHistory().stream().noneMatch(h -> h.reason() != null && h.reason().contains("\u0000")));
    }

    @Test
    void aLongCancellationReasonIsKeptWithinItsColumns() {
        OrderState state = pending(ORDER);
        state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE);

        state.cancel(T0.plusSeconds(1), ORDER, Actor.of(Actor.Kind.operator, "ops"), "y".repeat(5000));

        assertEquals(ReasonText.MAX_LENGTH, state.lastError().length());
        assertTrue(state.lastError().startsWith("cancelled: yyy"), state.lastError());
        assertFitsTheHistory(state);
    }

    private static void assertFitsTheHistory(OrderState state) {
        List<HistoryEntry> history = state.drainHistory();
        assertFalse(history.isEmpty());
        assertTrue(history.stream().allMatch(h -> h.reason() == null || h.reason().length() <= ReasonText.MAX_LENGTH),
                "order_history.reason is VARCHAR(1000)");
    }

    @Test
    void expiryIsOnlyAfterCompleteByAndRetryResetsTheStepToPendingNotBeforeTheBackoff() {
        OrderState state = pending(ORDER);
        Attempt first = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        OffsetDateTime later = T0.plus(LEASE).plusSeconds(1);

        assertFalse(state.isExpired(T0.plus(LEASE)));
        assertTrue(state.isExpired(later));
        assertEquals(1, state.failuresIncludingExpiry("reserve"));
        retry(state, "reserve", later, later.plusSeconds(5), ORDER);

        assertEquals(ProcessState.Pending, state.processState());
        assertNull(state.lockedBy());
        assertNull(state.completeBy(), "a waiting record has no deadline; the next claim gives one");
        assertEquals(1, state.failureCount());
        assertEquals(1, state.steps().get(0).failureCount());
        assertEquals(StepStatus.NotStarted, state.steps().get(0).state());
        assertFalse(state.isClaimable(later.plusSeconds(4)), "not before the backoff");
        Attempt second = state.claim("node-b", later.plusSeconds(5), ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals(first.epoch() + 1, second.epoch());
        assertEquals(2, state.steps().get(0).attempts());
    }

    @Test
    void givingUpAfterExpiryCompensatesTheTimedOutStepToo() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        state.succeed("node-a", reserve.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE);
        OffsetDateTime later = T0.plus(LEASE).plusSeconds(1);

        assertTrue(giveUp(state, "charge", later, ORDER, ExpiryDecision.COMPENSATE), "a compensation awaits a scheduler");

        assertEquals(ProcessState.Compensating, state.processState());
        assertEquals(StepStatus.TimedOut, state.steps().get(1).state());
        Attempt refund = state.claim("node-b", later, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals("refund", refund.operation(), "the timed-out charge may have been applied");
    }

    @Test
    void anExpiredCompensationIsRetriedThenGivenUpToError() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt charge = state.succeed("node-a", reserve.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        Attempt release = state.fail("node-a", charge.epoch(), 1, "declined", T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        OffsetDateTime later = release.completeBy().plusSeconds(1);

        retry(state, "reserve", later, later, ORDER);
        assertEquals(ProcessState.Compensating, state.processState());
        assertTrue(state.isClaimable(later));
        Attempt again = state.claim("node-b", later, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals("release", again.operation());
        OffsetDateTime muchLater = again.completeBy().plusSeconds(1);
        assertFalse(giveUp(state, "reserve", muchLater, ORDER, ExpiryDecision.ERROR));

        assertEquals(ProcessState.Error, state.processState());
        assertEquals(StepStatus.CompensationFailed, state.steps().get(0).state());
    }

    @Test
    void cancellingAfterAnExpiredAttemptUndoesThatStepToo() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt charge = state.succeed("node-a", reserve.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);
        OffsetDateTime later = charge.completeBy().plusSeconds(1);
        retry(state, "charge", later, later.plusSeconds(30), ORDER);

        assertTrue(state.cancel(later, ORDER, Actor.of(Actor.Kind.operator, "ops"), "withdrawn"));

        assertEquals(StepStatus.TimedOut, state.steps().get(1).state(), "the expired charge may have been applied");
        assertNull(state.notBefore(), "nothing is in flight, so nothing to wait for");
        assertEquals("refund", state.claim("node-a", later, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0).operation());
    }

    @Test
    void cancellingAStepInFlightWaitsOutItsCompleteBy() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);

        state.cancel(T0.plusSeconds(1), ORDER, Actor.of(Actor.Kind.operator, "ops"), "withdrawn");

        assertEquals(reserve.completeBy(), state.notBefore());
        assertFalse(state.isClaimable(T0.plusSeconds(2)));
        assertEquals("release", state.claim("node-a", reserve.completeBy(), ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0).operation());
    }

    @Test
    void nothingToUndoEndsCompensatedAtOnce() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);

        assertTrue(state.fail("node-a", reserve.epoch(), 0, "out of stock", T0, ORDER, AGENT, PausedDispatch.NONE).isEmpty());

        assertEquals(ProcessState.Compensated, state.processState());
    }

    @Test
    void everyTransitionIsInTheHistory() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        state.succeed("node-a", reserve.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE);

        List<String> moves = state.drainHistory().stream()
                .map(h -> (h.stepName() == null ? "task" : h.stepName()) + ":" + h.fromState() + ">" + h.toState() + "@" + h.actor())
                .toList();

        assertEquals(List.of("task:null>Pending@submission", "task:Pending>Processing@scheduler",
                "reserve:NotStarted>Running@scheduler", "reserve:Running>Completed@agent",
                "charge:NotStarted>Running@scheduler"), moves);
    }

    private static PausedDispatch paused(String... scopes) {
        return new PausedDispatch(java.util.Set.of(scopes));
    }

    @Test
    void aClaimWhoseFirstOperationIsPausedParksTheOrderWithoutStartingAnything() {
        OrderState state = pending(ORDER);
        state.drainHistory();

        List<Attempt> attempt = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", paused("reserve"));

        assertTrue(attempt.isEmpty());
        assertEquals(ProcessState.Pending, state.processState());
        assertEquals("reserve", state.pausedOn());
        assertNull(state.lockedBy());
        assertNull(state.completeBy(), "a parked order holds no complete-by: the supervisor never sees it");
        assertEquals(0, state.epoch());
        assertFalse(state.isClaimable(T0.plusSeconds(60)), "parked until resumed");
        assertEquals("waits: dispatch of reserve is paused", state.drainHistory().get(0).reason());
    }

    @Test
    void pausingEverythingParksTooAndAnUnrelatedPauseDoesNot() {
        assertEquals("reserve", claimed(paused(PausedDispatch.ALL)).pausedOn());
        OrderState other = pending(ORDER);
        assertTrue(other.claim("node-a", T0, ORDER, SCHEDULER, "claimed", paused("ship")).size() == 1);
        assertNull(other.pausedOn());
    }

    @Test
    void anOrderReleasedFromItsPauseStartsThatAttemptAloneAndThePauseHoldsTheRest() {
        OrderState state = claimed(paused("reserve", "charge"));
        assertEquals("reserve", state.pausedOn());
        state.drainHistory();

        state.releaseFromPause(T0.plusSeconds(5), Actor.of(Actor.Kind.operator, "ops"), "bulk job 7: VIP customers");

        assertNull(state.pausedOn());
        assertTrue(state.isClaimable(T0.plusSeconds(5)), "claimable again, to be announced");
        assertEquals("let through the pause of reserve: bulk job 7: VIP customers", state.drainHistory().get(0).reason());
        List<Attempt> started = state.claim("node-a", T0.plusSeconds(6), ORDER, SCHEDULER, "claimed", paused("reserve", "charge"));
        assertEquals(1, started.size(), "the released attempt starts though reserve is still paused");
        assertEquals("reserve", started.get(0).operation());

        List<Attempt> next = state.succeed("node-a", started.get(0).epoch(), 0, T0.plusSeconds(7), ORDER, AGENT,
                paused("reserve", "charge"));
        assertTrue(next.isEmpty());
        assertEquals("charge", state.pausedOn(), "the next paused operation holds it again");
    }

    @Test
    void onlyAParkedOrderCanBeReleasedFromAPause() {
        OrderState state = pending(ORDER);
        assertThrows(IllegalTransitionException.class,
                () -> state.releaseFromPause(T0, Actor.of(Actor.Kind.operator, "ops"), "not parked"));
    }

    private static OrderState claimed(PausedDispatch paused) {
        OrderState state = pending(ORDER);
        state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", paused);
        return state;
    }

    @Test
    void aCompletedStepWhoseNextOperationIsPausedParksTheOrderPendingWithoutFailure() {
        OrderState state = pending(ORDER);
        Attempt a = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);

        List<Attempt> next = state.succeed("node-a", a.epoch(), 0, T0.plusSeconds(1), ORDER, AGENT, paused("charge"));

        assertTrue(next.isEmpty());
        assertEquals(ProcessState.Pending, state.processState());
        assertEquals("charge", state.pausedOn());
        assertNull(state.lockedBy());
        assertNull(state.completeBy());
        assertEquals(0, state.failureCount());
        assertEquals(StepStatus.Completed, state.steps().get(0).state());
        assertEquals(StepStatus.NotStarted, state.steps().get(1).state());
    }

    @Test
    void aCompensationWhoseOperationIsPausedParksTheCompensatingOrderAndCancelClearsAForwardPark() {
        OrderState state = pending(ORDER);
        Attempt a = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        Attempt b = state.succeed("node-a", a.epoch(), 0, T0, ORDER, AGENT, PausedDispatch.NONE).get(0);

        List<Attempt> undo = state.fail("node-a", b.epoch(), 1, "card declined", T0, ORDER, AGENT, paused("release"));

        assertTrue(undo.isEmpty());
        assertEquals(ProcessState.Compensating, state.processState());
        assertEquals("release", state.pausedOn());
        assertNull(state.lockedBy());
        assertFalse(state.isClaimable(T0));

        OrderState parked = claimed(paused("reserve"));
        assertFalse(parked.cancel(T0, ORDER, Actor.of(Actor.Kind.operator, "ops"), "customer withdrew"),
                "nothing was done, so nothing is left to undo");
        assertEquals(ProcessState.Compensated, parked.processState());
        assertNull(parked.pausedOn(), "a cancelled order no longer waits for its forward step");
    }

    @Test
    void aRetriedOrderParkedOnAPausedOperationShowsNoDeadline() {
        OrderState state = pending(ORDER);
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        OffsetDateTime later = reserve.completeBy().plusSeconds(1);
        retry(state, "reserve", later, later, ORDER);

        assertTrue(state.claim("node-a", later, ORDER, SCHEDULER, "claimed", paused("reserve")).isEmpty());

        assertEquals("reserve", state.pausedOn());
        assertNull(state.completeBy(), "the retry's deadline does not run while the order waits");
        assertEquals(1, state.failureCount(), "the expiry before the pause counts; the wait does not");
    }

    /** reserve, then ship and invoice in parallel (group "fulfil"), then notify. */
    private static final WorkflowDefinition FORKED = new WorkflowDefinition("forked", List.of(
            step("reserve", "release", OnExhausted.COMPENSATE),
            step("ship", "cancel", OnExhausted.COMPENSATE).inGroup("fulfil"),
            step("invoice", "void", OnExhausted.COMPENSATE).inGroup("fulfil"),
            step("notify", null, OnExhausted.COMPENSATE)));

    private static List<Attempt> startGroup(OrderState state) {
        Attempt reserve = state.claim("node-a", T0, FORKED, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        return state.succeed("node-a", reserve.epoch(), 0, T0, FORKED, AGENT, PausedDispatch.NONE);
    }

    @Test
    void aGroupsBranchesStartTogetherEachWithItsOwnAttemptAndTheNextStepWaitsForAll() {
        OrderState state = pending(FORKED);
        List<Attempt> branches = startGroup(state);

        assertEquals(List.of("ship", "invoice"), branches.stream().map(Attempt::stepName).toList());
        assertTrue(branches.get(0).epoch() != branches.get(1).epoch(), "each branch its own epoch");
        assertTrue(state.isCurrent(branches.get(0).epoch(), 1) && state.isCurrent(branches.get(1).epoch(), 2));
        assertFalse(state.isCurrent(branches.get(1).epoch(), 1), "one branch's epoch does not answer the other");
        assertFalse(state.holdsToken(1, branches.get(1).token()), "nor its token");

        assertTrue(state.succeed("node-a", branches.get(1).epoch(), 2, T0.plusSeconds(1), FORKED, AGENT, PausedDispatch.NONE).isEmpty(),
                "invoice done, ship still running: nothing starts");
        assertEquals(ProcessState.Processing, state.processState());
        assertEquals("node-a", state.lockedBy(), "the running branch holds the order");
        Attempt notify = state.succeed("node-a", branches.get(0).epoch(), 1, T0.plusSeconds(2), FORKED, AGENT, PausedDispatch.NONE).get(0);
        assertEquals("notify", notify.stepName());
        state.succeed("node-a", notify.epoch(), 3, T0.plusSeconds(3), FORKED, AGENT, PausedDispatch.NONE);
        assertEquals(ProcessState.Processed, state.processState());
    }

    @Test
    void aBranchRefusedForGoodAbandonsItsRunningSiblingAndEverythingIsUndoneNewestFirstAfterItsCompleteBy() {
        OrderState state = pending(FORKED);
        List<Attempt> branches = startGroup(state);
        Attempt ship = branches.get(0);
        Attempt invoice = branches.get(1);
        state.drainHistory();

        // invoice completes first; then ship is refused
        state.succeed("node-a", invoice.epoch(), 2, T0.plusSeconds(1), FORKED, AGENT, PausedDispatch.NONE);
        Attempt voidInvoice = state.fail("node-a", ship.epoch(), 1, "no carrier", T0.plusSeconds(2), FORKED, AGENT, PausedDispatch.NONE).get(0);
        assertEquals("void", voidInvoice.operation(), "nothing in flight to wait for: undoing starts at once");

        OrderState running = pending(FORKED);
        List<Attempt> both = startGroup(running);
        running.fail("node-a", both.get(1).epoch(), 2, "invoice refused", T0.plusSeconds(2), FORKED, AGENT, PausedDispatch.NONE);
        assertEquals(ProcessState.Compensating, running.processState());
        assertEquals(StepStatus.TimedOut, running.steps().get(1).state(), "ship abandoned: its outcome unknown");
        assertNull(running.lockedBy());
        assertEquals(both.get(0).completeBy(), running.notBefore(), "its agent may call until its complete-by");
        assertFalse(running.isCurrent(both.get(0).epoch(), 1), "ship's late reply is stale");
        assertFalse(running.isClaimable(T0.plusSeconds(3)));
        Attempt cancelShip = running.claim("node-b", both.get(0).completeBy(), FORKED, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals("cancel", cancelShip.operation(), "the abandoned branch is undone first (newest)");
        Attempt release = running.succeed("node-b", cancelShip.epoch(), 1, T0.plusSeconds(40), FORKED, AGENT, PausedDispatch.NONE).get(0);
        assertEquals("release", release.operation());

        // back to the first order: invoice completed before ship failed, so invoice is undone, then reserve
        Attempt release2 = state.succeed("node-a", voidInvoice.epoch(), 2, T0.plusSeconds(3), FORKED, AGENT, PausedDispatch.NONE).get(0);
        assertEquals("release", release2.operation());
        state.succeed("node-a", release2.epoch(), 0, T0.plusSeconds(4), FORKED, AGENT, PausedDispatch.NONE);
        assertEquals(ProcessState.Compensated, state.processState());
        assertEquals(StepStatus.Failed, state.steps().get(1).state(), "the refused step was not applied: not undone");
    }

    @Test
    void branchesAreUndoneInReverseOrderOfCompletionNotOfPosition() {
        OrderState state = pending(FORKED);
        List<Attempt> branches = startGroup(state);
        state.succeed("node-a", branches.get(0).epoch(), 1, T0.plusSeconds(1), FORKED, AGENT, PausedDispatch.NONE); // ship first
        Attempt notify = state.succeed("node-a", branches.get(1).epoch(), 2, T0.plusSeconds(2), FORKED, AGENT, PausedDispatch.NONE).get(0);
        Attempt first = state.fail("node-a", notify.epoch(), 3, "mail refused", T0.plusSeconds(3), FORKED, AGENT, PausedDispatch.NONE).get(0);
        assertEquals("void", first.operation(), "invoice completed last: undone first");
        Attempt second = state.succeed("node-a", first.epoch(), 2, T0.plusSeconds(4), FORKED, AGENT, PausedDispatch.NONE).get(0);
        assertEquals("cancel", second.operation());
        Attempt third = state.succeed("node-a", second.epoch(), 1, T0.plusSeconds(5), FORKED, AGENT, PausedDispatch.NONE).get(0);
        assertEquals("release", third.operation());
    }

    @Test
    void anExpiredBranchIsRetriedAloneWhileItsSiblingRunsAndTheRetryStartsWhenDue() {
        OrderState state = pending(FORKED);
        List<Attempt> branches = startGroup(state);
        OffsetDateTime later = T0.plus(LEASE).plusSeconds(1);
        // ship answered in time; invoice did not
        assertTrue(state.succeed("node-a", branches.get(0).epoch(), 1, T0.plusSeconds(1), FORKED, AGENT, PausedDispatch.NONE).isEmpty());
        assertEquals(List.of("invoice"), state.expiredSteps(later));
        retry(state, "invoice", later, later.plusSeconds(5), FORKED);
        assertEquals(ProcessState.Pending, state.processState(), "nothing runs: the order waits for the retry");
        assertEquals(later.plusSeconds(5), state.notBefore());

        OrderState both = pending(FORKED);
        List<Attempt> running = startGroup(both);
        // invoice expires while ship still runs (ship's deadline is later: started later)
        OffsetDateTime shipDeadline = running.get(0).completeBy();
        retry(both, "invoice", later, later.plusSeconds(5), FORKED);
        assertEquals(ProcessState.Processing, both.processState(), "ship keeps running");
        assertEquals(StepStatus.Running, both.steps().get(1).state());
        assertEquals(StepStatus.NotStarted, both.steps().get(2).state());
        assertFalse(both.isClaimable(later.plusSeconds(4)));
        assertTrue(both.isClaimable(later.plusSeconds(5)), "the branch's retry is due");
        Attempt retry = both.claim("node-b", later.plusSeconds(5), FORKED, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        assertEquals("invoice", retry.stepName());
        assertNull(both.notBefore());
        assertEquals(shipDeadline.isBefore(retry.completeBy()) ? shipDeadline : retry.completeBy(), both.completeBy(),
                "the order's complete-by is its branches' earliest");
        assertTrue(both.isCurrent(running.get(0).epoch(), 1), "ship's attempt was left alone");
        assertFalse(both.isCurrent(running.get(1).epoch(), 2), "invoice's first attempt is dead");
    }

    @Test
    void aBranchThatGivesUpAfterExpiryAbandonsItsSibling() {
        OrderState state = pending(FORKED);
        List<Attempt> branches = startGroup(state);
        OffsetDateTime later = T0.plus(LEASE).plusSeconds(1);
        for (int i = 0; i < 2; i++) { // maxRetries 2
            retry(state, "invoice", later, later, FORKED);
            state.claim("node-a", later, FORKED, SCHEDULER, "claimed", PausedDispatch.NONE);
            later = later.plus(LEASE).plusSeconds(1);
        }
        assertTrue(state.expiredSteps(later).contains("invoice"));
        assertTrue(giveUp(state, "invoice", later, FORKED, ExpiryDecision.COMPENSATE));
        assertEquals(ProcessState.Compensating, state.processState());
        assertTrue(state.steps().stream().noneMatch(s -> s.lockedBy() != null), "nothing runs any more");
        assertEquals(StepStatus.TimedOut, state.steps().get(1).state());
        assertEquals(StepStatus.TimedOut, state.steps().get(2).state());
        assertFalse(state.isCurrent(branches.get(0).epoch(), 1));
    }

    @Test
    void cancellingAnOrderWithBranchesInFlightAbandonsEachAndWaitsOutTheLatestCompleteBy() {
        OrderState state = pending(FORKED);
        List<Attempt> branches = startGroup(state);
        assertTrue(state.cancel(T0.plusSeconds(1), FORKED, Actor.of(Actor.Kind.operator, "ops"), "customer left"));
        assertEquals(StepStatus.TimedOut, state.steps().get(1).state());
        assertEquals(StepStatus.TimedOut, state.steps().get(2).state());
        assertEquals(branches.get(1).completeBy(), state.notBefore());
    }

    /** As FORKED, but invoicing stops the order in Error when it gives up. */
    private static final WorkflowDefinition FORKED_ERROR = new WorkflowDefinition("forked-error", List.of(
            step("reserve", "release", OnExhausted.COMPENSATE),
            step("ship", "cancel", OnExhausted.COMPENSATE).inGroup("fulfil"),
            step("invoice", "void", OnExhausted.ERROR).inGroup("fulfil"),
            step("notify", null, OnExhausted.COMPENSATE)));

    @Test
    void aBranchStoppingInErrorKeepsItsAbandonedSiblingsWaitSoThatACancelUndoesAfterIt() {
        OrderState state = pending(FORKED_ERROR);
        Attempt reserve = state.claim("node-a", T0, FORKED_ERROR, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        List<Attempt> branches = state.succeed("node-a", reserve.epoch(), 0, T0, FORKED_ERROR, AGENT, PausedDispatch.NONE);
        state.fail("node-a", branches.get(1).epoch(), 2, "invoice refused", T0.plusSeconds(1), FORKED_ERROR, AGENT, PausedDispatch.NONE);
        assertEquals(ProcessState.Error, state.processState());
        assertEquals(branches.get(0).completeBy(), state.notBefore(), "shipping's agent may call until then");

        assertTrue(state.cancel(T0.plusSeconds(2), FORKED_ERROR, Actor.of(Actor.Kind.operator, "ops"), "give up"));
        assertEquals(branches.get(0).completeBy(), state.notBefore(), "the undo waits for the abandoned call");
        assertFalse(state.isClaimable(T0.plusSeconds(3)));
    }

    @Test
    void aGiveUpDropsAHeldBranchsParkingSoThatTheUndoIsNotHeldByAnotherOperationsPause() {
        OrderState state = pending(FORKED);
        Attempt reserve = state.claim("node-a", T0, FORKED, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        List<Attempt> started = state.succeed("node-a", reserve.epoch(), 0, T0, FORKED, AGENT, paused("invoice"));
        assertEquals(List.of("ship"), started.stream().map(Attempt::stepName).toList(), "invoice is held by its pause");
        assertEquals("invoice", state.pausedOn());

        Attempt cancelShip = state.fail("node-a", started.get(0).epoch(), 1, "no carrier", T0.plusSeconds(1), FORKED, AGENT, PausedDispatch.NONE)
                .get(0);
        assertEquals(ProcessState.Compensating, state.processState());
        assertNull(state.pausedOn(), "the undo is not parked on the held branch's operation");
        assertEquals("release", cancelShip.operation(), "shipping was refused (not applied): reserve is undone");
    }

    @Test
    void eachBranchKeepsItsOwnBackoffAndAClaimStartsOnlyTheDueOnes() {
        OrderState state = pending(FORKED);
        List<Attempt> branches = startGroup(state);
        OffsetDateTime later = T0.plus(LEASE).plusSeconds(1);
        retry(state, "invoice", later, later.plusSeconds(60), FORKED);
        retry(state, "ship", later, later.plusSeconds(1), FORKED);
        assertEquals(ProcessState.Pending, state.processState());
        assertEquals(later.plusSeconds(1), state.notBefore(), "the first branch due");

        List<Attempt> retried = state.claim("node-a", later.plusSeconds(1), FORKED, SCHEDULER, "claimed", PausedDispatch.NONE);
        assertEquals(List.of("ship"), retried.stream().map(Attempt::stepName).toList(), "invoice's backoff is not over");
        assertEquals(later.plusSeconds(60), state.notBefore(), "claimed again when invoice is due");
        assertFalse(state.isClaimable(later.plusSeconds(59)));
        List<Attempt> second = state.claim("node-a", later.plusSeconds(60), FORKED, SCHEDULER, "claimed", PausedDispatch.NONE);
        assertEquals(List.of("invoice"), second.stream().map(Attempt::stepName).toList());
        assertNull(state.notBefore());
        assertTrue(state.isCurrent(retried.get(0).epoch(), 1) && state.isCurrent(second.get(0).epoch(), 2));
        assertFalse(state.isCurrent(branches.get(0).epoch(), 1));
    }
}
