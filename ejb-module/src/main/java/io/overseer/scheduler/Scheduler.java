package io.overseer.scheduler;

import io.overseer.platform.TraceParent;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.overseer.agent.AgentReply;
import io.overseer.agent.FlowLimits;
import io.overseer.messaging.DispatchQueue;
import io.overseer.notification.AlertPublisher;
import io.overseer.platform.AfterCommit;
import io.overseer.platform.Clocks;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.ShutdownGate;
import io.overseer.platform.Tracing;
import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.CustomerOrder;
import io.overseer.statestore.FlowWindows;
import io.overseer.statestore.OrderContent;
import io.overseer.statestore.OrderContents;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.PausedDispatch;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The Scheduler of the pattern: claims work exclusively from the state store, runs each workflow's
 * steps in order through their agents, and undoes the completed ones in reverse when a step fails for
 * good. Each method is one database transaction over a batch — claim a hundred orders, or apply a
 * hundred replies — under the records' row locks; it stores the history of what it changed, and the
 * agent requests it decides leave once that transaction has committed ({@link AgentGateway}).
 */
@Stateless
public class Scheduler {

    private static final Logger LOG = Logger.getLogger(Scheduler.class.getName());
    /** How long a hint passed on by an instance shutting down waits in the broker. */
    private static final Duration HAND_ON_DELAY = Duration.ofSeconds(1);
    /** Why an order was claimed, in its history: on its hint, or found by the stranded-order poller. */
    public static final String CLAIMED = "claimed";
    public static final String CLAIMED_STRANDED = "claimed: its dispatch hint was lost (stranded-order poller)";
    public static final String CLAIMED_DUE = "claimed: its not-before passed";
    public static final String CLAIMED_AT_SUBMISSION = "claimed at submission";
    private static final Object PAUSES_READ = Scheduler.class.getName() + ".pauses";
    private static final Object ADMITTED = Scheduler.class.getName() + ".admitted";

    @Inject
    StateStore store;
    @Inject
    FlowWindows flowWindows;
    @Inject
    OrderContents contents;
    @Inject
    WorkflowRegistry workflows;
    @Inject
    AgentGateway agents;
    @Inject
    AlertPublisher alerts;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;
    @Inject
    ShutdownGate gate;
    @Inject
    DispatchQueue dispatchQueue;
    @Inject
    FlowLimits limits;
    @Inject
    MeterRegistry metrics;
    @Inject
    Tracing tracing;
    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    /**
     * Claims those of the given orders that wait for a scheduler and that no other transaction holds,
     * and starts their next step. Returns how many it claimed. An instance shutting down claims nothing:
     * it passes the hints on, a moment later, for another instance (or itself, restarted).
     */
    public int claim(Collection<String> orderIds) {
        return claim(orderIds, CLAIMED);
    }

    /** As {@link #claim(Collection)}, for orders found by the poller: their history says so. */
    public int claimStranded(Collection<String> orderIds) {
        return claim(orderIds, CLAIMED_STRANDED);
    }

    /** As {@link #claim(Collection)}, for waiting orders whose not-before has passed (due-order poller). */
    public int claimDue(Collection<String> orderIds) {
        return claim(orderIds, CLAIMED_DUE);
    }

    private int claim(Collection<String> orderIds, String reason) {
        if (!gate.isOpen()) {
            orderIds.forEach(id -> dispatchQueue.announce(id, HAND_ON_DELAY));
            return 0;
        }
        return start(store.lockClaimable(orderIds, clocks.now()), reason);
    }

    private int start(StateStore.Locked claimable, String reason) {
        if (claimable.states().isEmpty()) {
            return 0;
        }
        OffsetDateTime now = clocks.now();
        PausedDispatch paused = dispatchGate(claimable.paused());
        List<Attempt> attempts = new ArrayList<>(claimable.states().size());
        for (OrderState state : claimable.states()) {
            attempts.addAll(claimOne(state, now, reason, paused));
            store.saveHistory(state);
        }
        request(attempts);
        return attempts.size();
    }

    /**
     * The claim at submission: the scheduler creates a new order's records already claimed, in the caller's
     * transaction (a submission's, over HTTP or from the order queue, or a team's own bean's), and its first
     * attempts leave once that transaction commits — no dispatch hint, no second transaction, no second
     * broker hop (decision 0026). It is a hint's claim in every other way: the pauses read with a share lock,
     * a paused first operation parking the order, a flow limit holding it. An instance shutting down claims
     * nothing: the order is stored Pending and announced, a moment later, for another instance. A delayed
     * order never comes here: it is stored Pending and the due-order poller claims it in time.
     */
    public void admit(CustomerOrder order, OrderState state) {
        if (!gate.isOpen()) {
            store.create(order, state);
            dispatchQueue.announce(state.orderId(), HAND_ON_DELAY);
            return;
        }
        // Claimed in memory before the rows are written, so that each is inserted once, as it ends up.
        List<Attempt> attempts = claimOne(state, clocks.now(), CLAIMED_AT_SUBMISSION, dispatchGate(pausesOfThisTransaction()));
        store.create(order, state);
        OrderContent content = new OrderContent(order.orderId(), order.customerId(), order.lines());
        rememberOnCommit(content);
        request(attempts, Map.of(order.orderId(), content));
    }

    /**
     * The contents of the orders this transaction admits, kept for their next steps' requests once it
     * commits (a batch's orders together); a rollback keeps none. Registered before the first requests'
     * send, which Payara and WildFly then call after it: an order whose last reply came back at once is not
     * forgotten before it is kept (were it, its entry would only wait to be dropped as the oldest).
     */
    private void rememberOnCommit(OrderContent content) {
        AfterCommit.add(transactions, ADMITTED, content, contents::remember);
    }

    /**
     * The pauses as this transaction read them (share-locked) at its first admission: a batch admits many orders in
     * one transaction, and a pause that commits after that read holds only claims that begin after it, so one read
     * serves them all.
     */
    private PausedDispatch pausesOfThisTransaction() {
        PausedDispatch paused = (PausedDispatch) transactions.getResource(PAUSES_READ);
        if (paused == null) {
            paused = store.pausedDispatch();
            transactions.putResource(PAUSES_READ, paused);
        }
        return paused;
    }

    private List<Attempt> claimOne(OrderState state, OffsetDateTime now, String reason, PausedDispatch paused) {
        String heldBefore = state.throttledOn();
        List<Attempt> attempts = state.claim(instance.id(), now, workflows.get(state.workflow(), state.workflowVersion()),
                Actor.of(Actor.Kind.scheduler, instance.id()), reason, paused);
        if (state.throttledOn() != null && !state.throttledOn().equals(heldBefore) && tracing.on()) {
            traceHeld(state); // once per wait, as its history notes it: not at every claim that finds it held
        }
        return attempts;
    }

    /**
     * A claim that a flow limit held back: the order waits for a slot of that operation (until a reply frees
     * one, or its retry instant). A span says so in its trace, where the wait would otherwise be a gap.
     */
    private void traceHeld(OrderState state) {
        Span span = tracing.child("flow limit: waiting for " + state.throttledOn(), SpanKind.INTERNAL, state.traceParent());
        span.setAttribute(Tracing.ORDER_ID, state.orderId());
        span.setAttribute(Tracing.OPERATION, state.throttledOn());
        span.setAttribute(Tracing.INSTANCE, instance.id());
        span.end();
    }

    /**
     * Records a batch of agents' answers in one transaction. A reply for an attempt that is no longer
     * running changes nothing; a reply that names the running attempt without its token changes nothing
     * either, raises a security alert, and is returned so that the caller dead-letters it.
     */
    public List<AgentReply> applyReplies(List<AgentReply> replies) {
        OffsetDateTime began = clocks.now();
        StateStore.Locked batch = store.lockAll(replies.stream().map(AgentReply::orderId).distinct().toList());
        Map<String, OrderState> locked = batch.states().stream()
                .collect(Collectors.toMap(OrderState::orderId, Function.identity()));
        PausedDispatch paused = locked.isEmpty() ? PausedDispatch.NONE : dispatchGate(batch.paused());
        ReplyBatch.Result result = ReplyBatch.apply(locked, replies,
                state -> workflows.get(state.workflow(), state.workflowVersion()), instance.id(), clocks.now(), paused);
        result.stale().forEach(reply -> LOG.log(Level.FINE, "Stale reply for order {0} (trace {3}; epoch {1}, step {2}) ignored",
                new Object[] {reply.orderId(), reply.epoch(), reply.stepSeq(), TraceParent.traceId(reply.trace())}));
        result.forged().forEach(reply -> alerts.raise(reply.orderId(), reply.trace(), "forged-reply",
                "a reply for the running attempt (epoch " + reply.epoch() + ", step " + reply.stepSeq()
                        + ") without its token was refused"));
        result.moved().forEach(store::saveHistory);
        result.handedBack().forEach(dispatchQueue::announce);
        announceFreedSlots(replies, result);
        request(result.started());
        result.moved().forEach(this::reportIfFinal);
        if (tracing.on()) {
            traceApplied(replies, result, locked, began);
        }
        return result.forged();
    }

    /**
     * Each traced reply's application, a span under the agent's (begun with the batch's transaction, so its
     * length is the batch's): applied or stale, and the order's state after it; an order the reply
     * finished gets the final transition's span under it.
     */
    private void traceApplied(List<AgentReply> replies, ReplyBatch.Result result, Map<String, OrderState> locked,
                              OffsetDateTime began) {
        for (AgentReply reply : replies) {
            if (result.forged().contains(reply)) {
                continue; // its trace field is the forger's word: no span joins a trace on it (the alert says enough)
            }
            Span span = tracing.child("apply " + reply.operation() + " reply", SpanKind.CONSUMER, reply.trace(),
                    began.toInstant());
            if (!span.isRecording()) {
                span.end();
                continue;
            }
            OrderState state = locked.get(reply.orderId());
            span.setAttribute(Tracing.ORDER_ID, reply.orderId());
            span.setAttribute(Tracing.OPERATION, reply.operation());
            span.setAttribute(Tracing.EPOCH, reply.epoch());
            span.setAttribute(Tracing.INSTANCE, instance.id());
            span.setAttribute("overseer.reply", reply.outcome().name().toLowerCase(java.util.Locale.ROOT));
            String verdict = result.stale().contains(reply) ? "stale" : "applied";
            span.setAttribute(Tracing.OUTCOME, verdict);
            if (state != null) {
                span.setAttribute(Tracing.STATE, state.processState().name());
            }
            if (!"applied".equals(verdict)) {
                Tracing.failed(span, "reply " + verdict + ": not applied");
            } else if (state.processState().isFinal()) {
                finalTransition(span, state);
            }
            span.end();
        }
    }

    /** The span of an order's last transition (Processed, Compensated, Error, Cancelled…), under {@code cause}. */
    private void finalTransition(Span cause, OrderState state) {
        Span span = tracing.under(cause, "order " + state.processState().name(), SpanKind.INTERNAL);
        span.setAttribute(Tracing.ORDER_ID, state.orderId());
        span.setAttribute(Tracing.STATE, state.processState().name());
        if (state.processState() == ProcessState.Error) {
            Tracing.failed(span, state.lastError());
        }
        span.end();
    }

    /**
     * An external event for an order (REST or the order queue), in one transaction under the order's row
     * lock: if the running step waits for it, the step completes with its body and the order moves on,
     * the next attempt leaving after the commit. A repeated delivery changes nothing. An order not
     * waiting for it now — finished, at another step, or never waiting for such an event — is refused
     * with {@link io.overseer.statestore.IllegalTransitionException}.
     */
    public EventReceipt deliver(String orderId, String event, String payload, Actor sender) {
        // The pauses before the order's row, as the claims and reply batches read them (in their lock
        // statements) and as a resume locks (the pause table, then the parked orders): one lock order for
        // all, so that a resume waiting for a reply batch that waits for this row is no deadlock.
        PausedDispatch paused = store.pausedDispatch();
        Optional<OrderState> locked = store.lock(orderId);
        if (locked.isEmpty()) {
            return EventReceipt.UNKNOWN_ORDER;
        }
        OrderState state = locked.get();
        WorkflowDefinition definition = workflows.get(state.workflow(), state.workflowVersion());
        if (state.received(event, definition)) {
            return EventReceipt.ALREADY_RECEIVED;
        }
        List<Attempt> next = state.receive(event, payload, instance.id(), clocks.now(), definition, sender,
                dispatchGate(paused));
        store.saveHistory(state);
        // The event's arrival in the order's trace, linked to the sender's request (its own trace).
        Span span = tracing.caused("event " + event + " received", state.traceParent(), Span.current().getSpanContext());
        span.setAttribute(Tracing.ORDER_ID, orderId);
        span.setAttribute(Tracing.ACTOR, String.valueOf(sender));
        span.setAttribute(Tracing.STATE, state.processState().name());
        span.end();
        request(next);
        reportIfFinal(state);
        LOG.log(Level.FINE, "Order {0} (trace {3}): event {1} received from {2}", new Object[] {orderId, event, sender,
                TraceParent.traceId(state.traceParent())});
        return EventReceipt.RECEIVED;
    }

    /** The pauses, read (share-locked) in this transaction, and the flow limits (if any), enforced in it. */
    private PausedDispatch dispatchGate(PausedDispatch paused) {
        return limits.isEmpty() ? paused : paused.limitedBy(new FlowGate(flowWindows, limits, metrics));
    }

    /**
     * Each applied reply of a limited operation ended an attempt and freed a slot: as many records waiting
     * for that limit are made claimable and announced, so that they start now rather than at their retry
     * instant. Those the limit still holds when claimed simply wait again.
     */
    private void announceFreedSlots(List<AgentReply> replies, ReplyBatch.Result result) {
        if (limits.isEmpty()) {
            return;
        }
        Map<String, Integer> freed = new java.util.TreeMap<>();
        for (AgentReply reply : replies) {
            if (limits.limits(reply.operation()) && !result.stale().contains(reply) && !result.forged().contains(reply)) {
                freed.merge(reply.operation(), 1, Integer::sum);
            }
        }
        freed.forEach((operation, slots) -> store.releaseThrottled(operation, slots).forEach(dispatchQueue::announce));
    }

    private void request(List<Attempt> started) {
        // A step that waits for an external event has no agent: its complete-by is the supervisor's to watch.
        List<Attempt> attempts = started.stream().filter(attempt -> !attempt.awaitsEvent()).toList();
        if (!attempts.isEmpty()) {
            request(attempts, contents.of(attempts.stream().map(Attempt::orderId).toList()));
        }
    }

    private void request(List<Attempt> started, Map<String, OrderContent> orders) {
        for (Attempt attempt : started) {
            if (attempt.awaitsEvent()) {
                continue;
            }
            agents.request(attempt, orders.get(attempt.orderId()));
            LOG.log(Level.FINE, "Order {0} (trace {5}): {1} {2} (epoch {3}) to complete by {4}", new Object[] {attempt.orderId(),
                    attempt.compensation() ? "compensation" : "step", attempt.operation(), attempt.epoch(),
                    attempt.completeBy(), TraceParent.traceId(attempt.trace())});
        }
    }

    /** The needs-operator alert of an order that ends in Error follows from its stored transition (NeedsOperatorAlert). */
    private void reportIfFinal(OrderState state) {
        if (state.processState().isFinal()) {
            contents.forget(state.orderId());
            LOG.log(Level.FINE, "Order {0} (trace {2}) {1}", new Object[] {state.orderId(), state.processState(),
                    TraceParent.traceId(state.traceParent())});
        }
    }
}
