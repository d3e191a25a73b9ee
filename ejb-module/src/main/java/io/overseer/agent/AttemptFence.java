package io.overseer.agent;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Tells an agent whether the attempt it works on is still the one the state store holds: same epoch,
 * still claimed. Checked before every call to the remote service, so an agent stops calling for an
 * attempt that was cancelled, expired and retried elsewhere, or answered already — it cannot undo a
 * call already made, but it makes no new one. Outside the agent's transaction: a connection enlisted
 * there would be held for the whole attempt, and sixteen agents would drain the pool.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class AttemptFence {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    public boolean isCurrent(AgentRequest request) {
        List<?> rows = em.createNativeQuery("SELECT 1 FROM order_state"
                        + " WHERE order_id = ?1 AND epoch = ?2 AND locked_by IS NOT NULL")
                .setParameter(1, request.orderId())
                .setParameter(2, request.epoch())
                .getResultList();
        return !rows.isEmpty();
    }
}
