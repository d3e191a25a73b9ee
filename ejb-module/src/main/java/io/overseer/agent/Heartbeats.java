package io.overseer.agent;

import io.opentelemetry.api.trace.Span;
import io.overseer.platform.Clocks;
import io.overseer.statestore.StateStore;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * Part of the agent SPI: a coded agent ({@link RemoteService}) working on a long call reports that it is
 * alive, so that a dead or hung one is noticed long before the attempt's complete-by. Inject it and call
 * {@link #beat} more often than {@link AgentRequest#heartbeat()}:
 *
 * <pre>{@code
 * @Inject Heartbeats heartbeats;
 *
 * public CallResult call(AgentRequest request, Duration timeout) {
 *     for (Chunk chunk : work(request)) {
 *         if (!heartbeats.beat(request)) {
 *             return CallResult.transientFault("attempt taken over; stopping");  // its reply would be stale
 *         }
 *         chunk.process();
 *     }
 *     return CallResult.success("done");
 * }}</pre>
 *
 * Each beat is one small UPDATE in a transaction of its own. An attempt that stays silent longer than its
 * step's heartbeat is expired by the supervisor as if its complete-by had passed: retried (a new epoch,
 * maybe on another instance) or given up by the step's policy.
 */
@Stateless
public class Heartbeats {

    @Inject
    StateStore store;
    @Inject
    Clocks clocks;
    @EJB
    AttemptFence fence;

    /**
     * Reports the attempt alive: its heartbeat deadline moves to now plus {@link AgentRequest#heartbeat()}.
     * Returns whether the attempt is still the running one: false once it was expired, answered or
     * cancelled, when the agent should stop working on it. For a step without a heartbeat nothing is
     * written and the answer is the same.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean beat(AgentRequest request) {
        Span.current().addEvent("heartbeat"); // the attempt's span, on the agent's worker; a no-op untraced
        if (request.heartbeat() == null) {
            return fence.isCurrent(request);
        }
        return store.heartbeat(request.orderId(), request.stepSeq(), request.epoch(), clocks.now().plus(request.heartbeat()));
    }
}
