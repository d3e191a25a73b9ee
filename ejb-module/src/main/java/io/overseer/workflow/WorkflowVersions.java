package io.overseer.workflow;

import io.overseer.platform.Database;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * The stored workflow versions (V12) and which of them unfinished orders use. It writes only its own
 * table: pinning orders to a version is the state store's ({@link WorkflowDeployed}).
 */
@Stateless
public class WorkflowVersions {

    /**
     * Unfinished: an order in Error is too, as an operator may still resubmit or cancel it. Public for the
     * state store, which pins unversioned unfinished orders ({@code StateStore.pinUnversioned}).
     */
    public static final String UNFINISHED = "process_state IN ('Pending', 'Processing', 'Compensating', 'Error')";

    /** A version unfinished orders use: how many, and the first few of them by age, to name in an error. */
    public record InUse(String workflow, String version, long orders, String firstOrders) {
    }

    /** A stored version: whose, which, and when an instance first stored it. */
    public record Stored(String workflow, String version, OffsetDateTime firstSeen) {
    }

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    /** Stores the definition under its version, once; a version's content never changes (it is its hash). */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void record(WorkflowDefinition definition, OffsetDateTime now) {
        em.createNativeQuery("INSERT INTO workflow_version (workflow, version, definition, first_seen)"
                        + " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (workflow, version) DO NOTHING")
                .setParameter(1, definition.name())
                .setParameter(2, definition.version())
                .setParameter(3, definition.canonicalJson())
                .setParameter(4, now)
                .executeUpdate();
    }

    /** The stored canonical JSON of a version, if any instance ever recorded it. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    @SuppressWarnings("unchecked")
    public Optional<String> definition(String workflow, String version) {
        List<String> found = em.createNativeQuery("SELECT definition FROM workflow_version WHERE workflow = ?1 AND version = ?2")
                .setParameter(1, workflow)
                .setParameter(2, version)
                .getResultList();
        return found.stream().findFirst();
    }

    /**
     * Every stored version, by workflow and oldest first: what the console lists. The table holds one row per
     * definition any instance ever deployed (never deleted), so it stays small.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    @SuppressWarnings("unchecked")
    public List<Stored> stored() {
        List<Object[]> rows = em.createNativeQuery("SELECT workflow, version, first_seen FROM workflow_version"
                        + " ORDER BY workflow, first_seen, version")
                .getResultList();
        return rows.stream().map(row -> new Stored((String) row[0], (String) row[1], Database.utc(row[2]))).toList();
    }

    /**
     * Every version that unfinished orders use, with their count. One pass over order_state at deployment
     * (no index serves "unfinished", and one that did would cost every transition an index entry).
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    @SuppressWarnings("unchecked")
    public List<InUse> inUse() {
        List<Object[]> rows = em.createNativeQuery("SELECT workflow, workflow_version, count(*),"
                        + " array_to_string((array_agg(order_id ORDER BY created_at))[1:5], ', ')"
                        + " FROM order_state WHERE workflow_version IS NOT NULL AND " + UNFINISHED
                        + " GROUP BY workflow, workflow_version ORDER BY workflow, workflow_version")
                .getResultList();
        return rows.stream().map(row -> new InUse((String) row[0], (String) row[1], ((Number) row[2]).longValue(),
                (String) row[3])).toList();
    }
}
