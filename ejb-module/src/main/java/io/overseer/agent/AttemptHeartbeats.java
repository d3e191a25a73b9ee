package io.overseer.agent;

import io.opentelemetry.api.trace.Span;
import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.Heartbeats;
import io.overseer.platform.Clocks;
import io.overseer.statestore.StateStore;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * Overseer's {@link Heartbeats}, the agent API's bean a coded agent injects to report a long call alive:
 * each beat moves the attempt's heartbeat deadline (V13) in a transaction of its own, and says whether the
 * attempt is still the running one (the fence). The supervisor expires an attempt that falls silent.
 */
@Stateless
// Bound under the API's application-wide name: a team's agents live in a library (the EAR's lib/), whose
// beans CDI does not let see this module's, so they reach this bean by that name (@EJB(lookup = …)).
@EJB(name = Heartbeats.JNDI_NAME, beanInterface = Heartbeats.class, beanName = "AttemptHeartbeats")
public class AttemptHeartbeats implements Heartbeats {

    @Inject
    StateStore store;
    @Inject
    Clocks clocks;
    @EJB
    AttemptFence fence;

    @Override
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean beat(AgentRequest request) {
        if (!(request instanceof AttemptRequest attempt)) {
            throw new IllegalArgumentException("Heartbeats.beat takes the request the agent received, not "
                    + (request == null ? "null" : "a " + request.getClass().getName()));
        }
        Span.current().addEvent("heartbeat"); // the attempt's span, on the agent's worker; a no-op untraced
        if (attempt.heartbeatInterval() == null) {
            return fence.isCurrent(attempt);
        }
        return store.heartbeat(attempt.orderId(), attempt.stepSeq(), attempt.epoch(),
                clocks.now().plus(attempt.heartbeatInterval()));
    }
}
