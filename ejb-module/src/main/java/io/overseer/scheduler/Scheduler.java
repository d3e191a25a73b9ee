package io.overseer.scheduler;

import io.overseer.agent.AgentReply;
import io.overseer.notification.AlertPublisher;
import io.overseer.platform.Clocks;
import io.overseer.platform.ShutdownGate;
import io.overseer.platform.InstanceIdentity;
import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Scheduler of the pattern: claims work exclusively from the state store, runs each workflow's
 * steps in order through their agents, and undoes the completed ones in reverse when a step fails for
 * good. Every method runs in the caller's transaction (a listener's delivery, or the poller's), under
 * the order's row lock, and stores the history of what it changed.
 */
@Stateless
public class Scheduler {

    private static final Logger LOG = Logger.getLogger(Scheduler.class.getName());
    /** How long a hint passed on by an instance shutting down waits in the broker. */
    private static final Duration HAND_ON_DELAY = Duration.ofSeconds(1);

    @Inject
    StateStore store;
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

    /**
     * Claims the order if it waits for a scheduler; false if it is unknown, not due, or another instance
     * has it. An instance shutting down claims nothing: it passes the hint on, a moment later, for
     * another instance (or itself, restarted).
     */
    public boolean dispatch(String orderId) {
        if (!gate.isOpen()) {
            dispatchQueue.announce(orderId, HAND_ON_DELAY);
            return false;
        }
        Optional<OrderState> locked = store.lock(orderId);
        if (locked.isEmpty()) {
            LOG.log(Level.WARNING, "Dispatch for unknown order {0} ignored", orderId);
            return false;
        }
        OrderState state = locked.get();
        if (!state.isClaimable(clocks.now())) {
            LOG.log(Level.FINE, "Order {0} is {1}; nothing to dispatch", new Object[] {orderId, state.processState()});
            return false;
        }
        start(state, state.claim(instance.id(), clocks.now(), workflows.get(state.workflow()),
                Actor.of(Actor.Kind.scheduler, instance.id())));
        store.saveHistory(state);
        return true;
    }

    /** Records an agent's answer, unless it answers an attempt that is no longer the current one. */
    public void onReply(AgentReply reply) {
        OrderState state = store.lock(reply.orderId()).orElse(null);
        if (state == null || !state.isCurrent(reply.epoch(), reply.stepSeq())) {
            LOG.log(Level.INFO, "Stale reply for order {0} (epoch {1}, step {2}) ignored",
                    new Object[] {reply.orderId(), reply.epoch(), reply.stepSeq()});
            return;
        }
        WorkflowDefinition definition = workflows.get(state.workflow());
        Actor agent = Actor.of(Actor.Kind.agent, reply.operation());
        Optional<Attempt> next = switch (reply.outcome()) {
            case SUCCEEDED -> state.succeed(reply.epoch(), reply.stepSeq(), clocks.now(), definition, agent);
            case FAILED -> state.fail(reply.epoch(), reply.stepSeq(), reply.operation() + ": " + reply.detail(),
                    clocks.now(), definition, agent);
            case HANDED_BACK -> {
                state.handBack(reply.epoch(), reply.stepSeq(), reply.operation() + ": " + reply.detail(), clocks.now(),
                        agent);
                dispatchQueue.announce(state.orderId());
                yield Optional.empty();
            }
        };
        next.ifPresent(attempt -> start(state, attempt));
        store.saveHistory(state);
        reportIfFinal(state);
    }

    private void reportIfFinal(OrderState state) {
        if (state.processState() == ProcessState.Error) {
            alerts.raise(state.orderId(), "needs-operator", state.lastError());
        }
        if (state.processState().isFinal()) {
            LOG.log(Level.INFO, "Order {0} {1}", new Object[] {state.orderId(), state.processState()});
        }
    }

    private void start(OrderState state, Attempt attempt) {
        agents.request(attempt, store.order(state.orderId()).orElseThrow());
        LOG.log(Level.INFO, "Order {0} {1} on {2}: {3} {4} (epoch {5}) to complete by {6}",
                new Object[] {state.orderId(), state.processState(), state.lockedBy(),
                        attempt.compensation() ? "compensation" : "step", attempt.operation(), attempt.epoch(),
                        attempt.completeBy()});
    }
}
