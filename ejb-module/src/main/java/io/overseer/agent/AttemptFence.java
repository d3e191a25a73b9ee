package io.overseer.agent;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Tells an agent whether the attempts it works on are still the ones the state store holds: same epoch,
 * still claimed. Checked for a whole batch before its first calls (one query), and again before every
 * retry, so an agent stops calling for an attempt that was cancelled, expired and retried elsewhere, or
 * answered already — it cannot undo a call already made, but it makes no new one. Outside any
 * transaction: a connection enlisted in one would be held for the whole attempt.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class AttemptFence {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    public boolean isCurrent(AttemptRequest request) {
        return current(List.of(request)).contains(key(request.orderId(), request.epoch()));
    }

    /** The keys ({@link #key}) of those of the requests whose attempt is still the claimed one. */
    @SuppressWarnings("unchecked")
    public Set<String> current(List<AttemptRequest> requests) {
        if (requests.isEmpty()) {
            return Set.of();
        }
        // Per step: the branches of a parallel group run attempts of one order at once, each with its epoch.
        var query = em.createNativeQuery("SELECT order_id, epoch FROM step_state WHERE locked_by IS NOT NULL"
                + " AND step_id IN (" + IntStream.rangeClosed(1, requests.size()).mapToObj(i -> "?" + i)
                .collect(Collectors.joining(",")) + ")");
        for (int i = 0; i < requests.size(); i++) {
            query.setParameter(i + 1, io.overseer.statestore.StepState.idOf(requests.get(i).orderId(), requests.get(i).stepSeq()));
        }
        Set<String> current = new HashSet<>();
        for (Object[] row : (List<Object[]>) query.getResultList()) {
            current.add(key((String) row[0], ((Number) row[1]).longValue()));
        }
        return current;
    }

    public static String key(String orderId, long epoch) {
        return orderId + "@" + epoch;
    }
}
