package io.overseer.scheduler;

import io.overseer.agent.AgentReply;
import io.overseer.notification.AlertPublisher;
import io.overseer.platform.Clocks;
import io.overseer.platform.InstanceIdentity;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StateStore;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Scheduler of the pattern: claims Pending orders exclusively from the state store, hands each
 * step to its agent, and records the agents' answers. Every method runs in the caller's transaction
 * (the listener's delivery, or the poller's), under the order's row lock.
 */
@Stateless
public class Scheduler {

    private static final Logger LOG = Logger.getLogger(Scheduler.class.getName());

    @Inject
    StateStore store;
    @Inject
    AgentGateway agents;
    @Inject
    AlertPublisher alerts;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;
    @Inject
    SchedulerSettings settings;

    /** Claims the order if it is still Pending; false if it is unknown or another instance has it. */
    public boolean dispatch(String orderId) {
        Optional<OrderState> locked = store.lock(orderId);
        if (locked.isEmpty()) {
            LOG.log(Level.WARNING, "Dispatch for unknown order {0} ignored", orderId);
            return false;
        }
        OrderState state = locked.get();
        if (state.processState() != ProcessState.Pending) {
            LOG.log(Level.FINE, "Order {0} is {1}; nothing to dispatch", new Object[] {orderId, state.processState()});
            return false;
        }
        start(state, state.claim(instance.id(), clocks.now(), settings.completeBy()));
        return true;
    }

    /** Claims Pending orders whose dispatch message went missing. Returns how many it claimed. */
    public int dispatchStranded() {
        List<String> ids = store.lockStrandedPending(clocks.now().minus(settings.strandedAfter()), settings.pollBatch());
        ids.forEach(this::dispatch);
        if (!ids.isEmpty()) {
            LOG.log(Level.INFO, "Claimed {0} stranded Pending orders", ids.size());
        }
        return ids.size();
    }

    /** Records an agent's answer, unless it answers an attempt that is no longer the current one. */
    public void onReply(AgentReply reply) {
        OrderState state = store.lock(reply.orderId()).orElse(null);
        if (state == null || !state.isCurrent(reply.epoch(), reply.stepSeq())) {
            LOG.log(Level.INFO, "Stale reply for order {0} (epoch {1}, step {2}) ignored",
                    new Object[] {reply.orderId(), reply.epoch(), reply.stepSeq()});
            return;
        }
        if (reply.outcome() == AgentReply.Outcome.SUCCEEDED) {
            state.completeStep(reply.epoch(), reply.stepSeq(), clocks.now(), settings.completeBy())
                    .ifPresentOrElse(next -> start(state, next),
                            () -> LOG.log(Level.INFO, "Order {0} Processed", state.orderId()));
        } else {
            state.failStep(reply.epoch(), reply.stepSeq(), reply.detail(), clocks.now());
            LOG.log(Level.INFO, "Order {0} in Error: step {1} failed: {2}",
                    new Object[] {state.orderId(), reply.operation(), reply.detail()});
            alerts.raise(state.orderId(), "step-failed", reply.operation() + ": " + reply.detail());
        }
    }

    private void start(OrderState state, Attempt attempt) {
        agents.request(attempt, store.order(state.orderId()).orElseThrow());
        LOG.log(Level.INFO, "Order {0} Processing on {1}: step {2} (epoch {3}) to complete by {4}",
                new Object[] {state.orderId(), state.lockedBy(), attempt.stepName(), attempt.epoch(), attempt.completeBy()});
    }
}
