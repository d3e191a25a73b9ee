package io.overseer.scheduler;

import org.mockito.Spy;
import io.overseer.platform.Tracing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.overseer.agent.AgentReply;
import io.overseer.agent.AgentReply.Outcome;
import io.overseer.agent.FlowLimits;
import io.overseer.messaging.DispatchQueue;
import io.overseer.notification.AlertPublisher;
import io.overseer.platform.Clocks;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.ShutdownGate;
import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.CustomerOrder;
import io.overseer.statestore.OrderLine;
import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.OrderContent;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.PausedDispatch;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.FlowWindows;
import io.overseer.statestore.OrderContents;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.InjectMocks;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * The scheduler's decisions with the state store, the agents' gateway, the order queue and the clock
 * mocked, and real {@link OrderState} records: what it claims (nothing while shutting down: the hints are
 * passed on), what it requests of the agents after a claim, a reply or an event, what it refuses (a reply
 * without its attempt's token: alerted and handed back for dead-lettering), and whom it alerts.
 */
@ExtendWith(MockitoExtension.class)
class SchedulerTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 24, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final Duration COMPLETE_BY = Duration.ofSeconds(30);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            new StepDefinition("reserve", "reserve-inventory", "release-inventory", COMPLETE_BY, 2, null, null, OnExhausted.COMPENSATE),
            StepDefinition.awaiting("approve", "approval", Duration.ofHours(1), OnExhausted.COMPENSATE),
            new StepDefinition("charge", "charge-payment", null, COMPLETE_BY, 2, null, null, OnExhausted.ERROR)));
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");
    private static final Actor AGENT = Actor.of(Actor.Kind.agent, "remote");

    @Mock
    StateStore store;
    @Mock
    OrderContents contents;
    @Mock
    FlowWindows flowWindows;
    @Mock
    WorkflowRegistry workflows;
    @Mock
    AgentGateway agents;
    @Mock
    AlertPublisher alerts;
    @Mock
    InstanceIdentity instance;
    @Mock
    Clocks clocks;
    @Mock
    ShutdownGate gate;
    @Mock
    DispatchQueue dispatchQueue;
    @Mock
    FlowLimits limits;
    @Mock
    jakarta.transaction.TransactionSynchronizationRegistry transactions;
    @Spy
    Tracing tracing = Tracing.off();
    @InjectMocks
    Scheduler scheduler;

    @BeforeEach
    void wiring() {
        lenient().when(clocks.now()).thenReturn(T0.plusSeconds(5));
        lenient().when(instance.id()).thenReturn("node-b");
        lenient().when(gate.isOpen()).thenReturn(true);
        lenient().when(limits.isEmpty()).thenReturn(true);
        lenient().when(workflows.get("order", ORDER.version())).thenReturn(ORDER);
        lenient().when(store.pausedDispatch()).thenReturn(PausedDispatch.NONE);
        // One transaction's resources, as the container keeps them for the test's one transaction.
        Map<Object, Object> resources = new java.util.HashMap<>();
        lenient().when(transactions.getResource(any())).thenAnswer(call -> resources.get(call.getArgument(0)));
        lenient().doAnswer(call -> resources.put(call.getArgument(0), call.getArgument(1)))
                .when(transactions).putResource(any(), any());
        lenient().when(contents.of(anyCollection())).thenAnswer(call -> {
            Map<String, OrderContent> contents = new java.util.HashMap<>();
            for (Object id : call.<java.util.Collection<?>>getArgument(0)) {
                contents.put((String) id, new OrderContent((String) id, "customer", List.of()));
            }
            return contents;
        });
    }

    @Test
    void anInstanceShuttingDownClaimsNothingAndPassesEachHintOnForLater() {
        when(gate.isOpen()).thenReturn(false);

        assertEquals(0, scheduler.claim(List.of("o-1", "o-2")));

        verify(dispatchQueue).announce("o-1", Duration.ofSeconds(1));
        verify(dispatchQueue).announce("o-2", Duration.ofSeconds(1));
        verifyNoInteractions(store, agents);
    }

    @Test
    void whatTheStoreLetsItClaimIsClaimedByThisInstanceAndRequestedOfTheAgents() {
        OrderState first = pending("o-1");
        OrderState second = pending("o-2");
        when(store.lockClaimable(List.of("o-1", "o-2", "o-3"), T0.plusSeconds(5))).thenReturn(locked(first, second));

        assertEquals(2, scheduler.claim(List.of("o-1", "o-2", "o-3")), "o-3 held elsewhere or no longer claimable");

        for (OrderState state : List.of(first, second)) {
            assertEquals(ProcessState.Processing, state.processState());
            assertEquals("node-b", state.lockedBy());
            verify(store).saveHistory(state);
        }
        ArgumentCaptor<Attempt> requested = ArgumentCaptor.forClass(Attempt.class);
        verify(agents, org.mockito.Mockito.times(2)).request(requested.capture(), any());
        assertEquals(List.of("o-1:reserve-inventory", "o-2:reserve-inventory"), requested.getAllValues().stream()
                .map(a -> a.orderId() + ":" + a.operation()).toList());
        assertEquals(T0.plusSeconds(5).plus(COMPLETE_BY), requested.getValue().completeBy());
        verify(store, never()).pausedDispatch(); // read with the claim's lock statement, not in one of its own
    }

    @Test
    void aNewOrderIsStoredAlreadyClaimedAndItsFirstStepRequestedWithTheOrdersOwnContent() {
        OrderState state = pending("o-9");
        CustomerOrder order = new CustomerOrder("o-9", "alice", List.of(new OrderLine("sku-1", 2)), T0);

        scheduler.admit(order, state);

        assertEquals(ProcessState.Processing, state.processState());
        assertEquals("node-b", state.lockedBy());
        assertEquals(Scheduler.CLAIMED_AT_SUBMISSION, lastReason(state, "Processing"));
        verify(store).create(order, state);
        verify(store).pausedDispatch(); // share-locked in the submission's transaction, as a hint's claim reads them
        ArgumentCaptor<OrderContent> content = ArgumentCaptor.forClass(OrderContent.class);
        ArgumentCaptor<Attempt> requested = ArgumentCaptor.forClass(Attempt.class);
        verify(agents).request(requested.capture(), content.capture());
        assertEquals("o-9:reserve-inventory", requested.getValue().orderId() + ":" + requested.getValue().operation());
        assertEquals("alice", content.getValue().customerId());
        assertEquals(order.lines(), content.getValue().lines());
        verifyNoInteractions(contents, dispatchQueue); // no read of what is in memory, no hint
    }

    @Test
    void newOrdersAdmittedInOneTransactionReadThePausesOnce() {
        scheduler.admit(new CustomerOrder("o-8", "alice", List.of(new OrderLine("sku-1", 2)), T0), pending("o-8"));
        scheduler.admit(new CustomerOrder("o-9", "alice", List.of(new OrderLine("sku-1", 2)), T0), pending("o-9"));

        verify(store).pausedDispatch(); // once: a batch's second order claims under the first one's read
        verify(agents, org.mockito.Mockito.times(2)).request(any(), any());
    }

    @Test
    void aNewOrderWhoseFirstOperationIsPausedIsStoredParkedAndRequestsNothing() {
        when(store.pausedDispatch()).thenReturn(new PausedDispatch(Set.of("reserve-inventory")));
        OrderState state = pending("o-9");

        scheduler.admit(new CustomerOrder("o-9", "alice", List.of(new OrderLine("sku-1", 2)), T0), state);

        assertEquals("reserve-inventory", state.pausedOn());
        verify(store).create(any(), org.mockito.ArgumentMatchers.same(state));
        verifyNoInteractions(agents, dispatchQueue);
    }

    @Test
    void anInstanceShuttingDownStoresANewOrderPendingAndAnnouncesItForLater() {
        when(gate.isOpen()).thenReturn(false);
        OrderState state = pending("o-9");

        scheduler.admit(new CustomerOrder("o-9", "alice", List.of(new OrderLine("sku-1", 2)), T0), state);

        assertEquals(ProcessState.Pending, state.processState());
        verify(store).create(any(), org.mockito.ArgumentMatchers.same(state));
        verify(dispatchQueue).announce("o-9", Duration.ofSeconds(1));
        verifyNoInteractions(agents);
    }

    @Test
    void theHistorySaysWhyAnOrderWasClaimed() {
        OrderState stranded = pending("o-1");
        when(store.lockClaimable(List.of("o-1"), T0.plusSeconds(5))).thenReturn(locked(stranded));

        scheduler.claimStranded(List.of("o-1"));

        assertEquals(Scheduler.CLAIMED_STRANDED, lastReason(stranded, "Processing"));
    }

    @Test
    void nothingClaimableMeansNoSeparatePauseReadAndNoRequest() {
        when(store.lockClaimable(List.of("o-1"), T0.plusSeconds(5))).thenReturn(locked());

        assertEquals(0, scheduler.claimDue(List.of("o-1")));

        verify(store, never()).pausedDispatch();
        verifyNoInteractions(agents);
    }

    @Test
    void aClaimOfAPausedOperationParksTheOrderAndRequestsNothing() {
        OrderState state = pending("o-1");
        when(store.lockClaimable(List.of("o-1"), T0.plusSeconds(5)))
                .thenReturn(new StateStore.Locked(List.of(state), new PausedDispatch(Set.of("reserve-inventory"))));

        assertEquals(0, scheduler.claim(List.of("o-1")));

        assertEquals("reserve-inventory", state.pausedOn());
        verify(store).saveHistory(state);
        verifyNoInteractions(agents);
    }

    @Test
    void aSuccessMovesTheOrderToAnEventWaitThatNoAgentIsAskedFor() {
        OrderState state = pending("o-1");
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        when(store.lockAll(List.of("o-1"))).thenReturn(locked(state));

        List<AgentReply> forged = scheduler.applyReplies(List.of(reply(reserve, reserve.token(), Outcome.SUCCEEDED)));

        assertEquals(List.of(), forged);
        assertEquals(ProcessState.Processing, state.processState());
        verify(store).saveHistory(state);
        verifyNoInteractions(agents); // the next step waits for "approval": its complete-by is the supervisor's
    }

    @Test
    void aReplyWithoutItsAttemptsTokenChangesNothingIsAlertedAndReturnedForTheDeadLetterQueue() {
        OrderState state = pending("o-1");
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        state.drainHistory();
        when(store.lockAll(List.of("o-1"))).thenReturn(locked(state));
        AgentReply forged = reply(reserve, "not-the-token", Outcome.SUCCEEDED);

        assertEquals(List.of(forged), scheduler.applyReplies(List.of(forged)));

        assertEquals("reserve", state.steps().stream().filter(s -> s.lockedBy() != null).findFirst().orElseThrow().name(),
                "still running");
        verify(alerts).raise(eq("o-1"), any(), eq("forged-reply"), anyString());
        verify(store, never()).saveHistory(any());
        verifyNoInteractions(agents);
    }

    @Test
    void aReplyForAnOrderNoLongerRunningReadsNoSeparatePauseAndChangesNothing() {
        when(store.lockAll(List.of("o-9"))).thenReturn(locked());

        assertEquals(List.of(), scheduler.applyReplies(List.of(new AgentReply("o-9", 4, 0, "t", "reserve-inventory",
                Outcome.SUCCEEDED, "late", null))));

        verify(store, never()).pausedDispatch();
        verifyNoInteractions(agents, alerts);
    }

    @Test
    void anEventCompletesTheWaitingStepAndRequestsTheNextOnceAndARepeatChangesNothing() {
        OrderState state = waitingForApproval();
        when(store.lock("o-1")).thenReturn(Optional.of(state));
        Actor operator = Actor.of(Actor.Kind.operator, "ops");

        assertEquals(EventReceipt.RECEIVED, scheduler.deliver("o-1", "approval", "{\"ok\":true}", operator));
        assertEquals(EventReceipt.ALREADY_RECEIVED, scheduler.deliver("o-1", "approval", "{\"ok\":true}", operator));

        ArgumentCaptor<Attempt> requested = ArgumentCaptor.forClass(Attempt.class);
        verify(agents).request(requested.capture(), any());
        assertEquals("charge-payment", requested.getValue().operation());
        assertEquals(Map.of("approval", "{\"ok\":true}"), requested.getValue().events());
        verify(store).saveHistory(state);
        var lockOrder = org.mockito.Mockito.inOrder(store);
        lockOrder.verify(store).pausedDispatch(); // the pause table before the order's row, as every other path
        lockOrder.verify(store).lock("o-1");
    }

    @Test
    void anEventForAnUnknownOrderIsSaidToBeSo() {
        when(store.lock("nobody")).thenReturn(Optional.empty());

        assertEquals(EventReceipt.UNKNOWN_ORDER, scheduler.deliver("nobody", "approval", "{}", SCHEDULER));
        verifyNoInteractions(agents);
    }

    @Test
    void aRefusalOfAStepThatGivesUpToAnOperatorStoresTheMoveToErrorThatAlerts() {
        OrderState state = waitingForApproval();
        Attempt charge = state.receive("approval", "{}", "node-a", T0.plusSeconds(2), ORDER, SCHEDULER, PausedDispatch.NONE).get(0);
        when(store.lockAll(List.of("o-1"))).thenReturn(locked(state));

        scheduler.applyReplies(List.of(reply(charge, charge.token(), Outcome.FAILED)));

        assertEquals(ProcessState.Error, state.processState());
        verify(store).saveHistory(state); // its task-level move to Error raises the alert (NeedsOperatorAlert)
        assertEquals(state.lastError(), lastReason(state, "Error"));
        verifyNoInteractions(alerts);
    }

    @Test
    void eachReplyOfALimitedOperationFreesASlotForARecordWaitingForIt() {
        OrderState state = pending("o-1");
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        when(store.lockAll(List.of("o-1"))).thenReturn(locked(state));
        when(limits.isEmpty()).thenReturn(false);
        when(limits.limits("reserve-inventory")).thenReturn(true);
        when(store.releaseThrottled("reserve-inventory", 1)).thenReturn(List.of("o-7"));
        lenient().when(limits.of(anyString())).thenReturn(Optional.empty());

        scheduler.applyReplies(List.of(reply(reserve, reserve.token(), Outcome.SUCCEEDED)));

        verify(dispatchQueue).announce("o-7");
    }

    private static OrderState pending(String orderId) {
        OrderState state = OrderState.pending(orderId, ORDER, T0.minusMinutes(1), Actor.of(Actor.Kind.submission, "node-a"), null);
        state.drainHistory();
        return state;
    }

    /** Reserve done; the order waits for the "approval" event. */
    private static OrderState waitingForApproval() {
        OrderState state = pending("o-1");
        Attempt reserve = state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        state.succeed("node-a", reserve.epoch(), reserve.stepSeq(), T0.plusSeconds(1), ORDER, AGENT, PausedDispatch.NONE);
        state.drainHistory();
        return state;
    }

    private static AgentReply reply(Attempt attempt, String token, Outcome outcome) {
        return new AgentReply(attempt.orderId(), attempt.epoch(), attempt.stepSeq(), token, attempt.operation(), outcome, "d", null);
    }

    private static String lastReason(OrderState state, String toState) {
        List<HistoryEntry> entries = new ArrayList<>(state.drainHistory());
        return entries.stream().filter(e -> e.toState().equals(toState)).reduce((a, b) -> b).orElseThrow().reason();
    }

    /** What the store's batch lock returns: the records, nothing paused (the pauses come with the lock statement). */
    private static StateStore.Locked locked(OrderState... states) {
        return new StateStore.Locked(List.of(states), PausedDispatch.NONE);
    }
}
