package io.overseer.admin;

import static io.overseer.platform.Database.utc;

import io.overseer.platform.Clocks;
import io.overseer.messaging.DispatchQueue;
import io.overseer.statestore.PausedDispatch;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Operators pause and resume the dispatch of one operation, or of everything ({@value PausedDispatch#ALL}).
 * A pause is a row in dispatch_pause: schedulers read it in each claim and reply transaction and park
 * what would call a paused operation (see {@link io.overseer.statestore.OrderState}). Nothing fails and
 * nothing is lost while paused; a resume unparks the records and announces them to the schedulers.
 */
@Stateless
public class DispatchPauses {

    private static final Logger LOG = Logger.getLogger(DispatchPauses.class.getName());

    /** One pause, and how many records are parked on it now. */
    @JsonbPropertyOrder({"scope", "pausedBy", "reason", "pausedAt", "waiting"})
    public record Pause(String scope, String pausedBy, String reason, OffsetDateTime pausedAt, long waiting) {
    }

    /** What a pause or resume did: whether it changed anything, and how many waiting orders a resume announced. */
    public record Outcome(boolean changed, int announced) {
    }

    /** Ends a pause; public so that the database tests run the very text the product runs. */
    public static final String RESUME_SQL = "DELETE FROM dispatch_pause WHERE scope = ?1";
    /**
     * Taken by a resume before its delete. A share lock that other share locks hold is granted to a new
     * reader at once, even while a delete waits for it: under steady claims, the delete alone could wait
     * for as long as they last. This table lock conflicts with the readers' (ROW SHARE) and queues fairly:
     * the resume waits for the readers already holding a pause, and later ones wait for the resume.
     */
    public static final String RESUME_LOCK_SQL = "LOCK TABLE dispatch_pause IN EXCLUSIVE MODE";

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    StateStore store;
    @Inject
    WorkflowRegistry workflows;
    @Inject
    DispatchQueue dispatchQueue;
    @Inject
    AuditLog audit;
    @Inject
    Clocks clocks;

    /** Every operation a workflow step or compensation calls, sorted: what can be paused, besides "all". */
    public List<String> operations() {
        TreeSet<String> operations = new TreeSet<>();
        for (var workflow : workflows.running()) { // a version in-flight orders kept may call others
            for (StepDefinition step : workflow.steps()) {
                if (step.operation() != null) { // a step that waits for an event calls nothing
                    operations.add(step.operation());
                }
                step.compensationOperation().ifPresent(operations::add);
            }
        }
        return List.copyOf(operations);
    }

    /** Whether {@code scope} names something that can be paused. */
    public boolean isPausable(String scope) {
        return PausedDispatch.ALL.equals(scope) || operations().contains(scope);
    }

    @SuppressWarnings("unchecked")
    public List<Pause> paused() {
        List<Object[]> rows = em.createNativeQuery(
                "SELECT scope, paused_by, reason, paused_at FROM dispatch_pause ORDER BY paused_at").getResultList();
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<String, Long> parked = ((List<Object[]>) em.createNativeQuery(
                "SELECT paused_on, count(*) FROM order_state WHERE paused_on IS NOT NULL GROUP BY paused_on")
                .getResultList()).stream()
                .collect(Collectors.toMap(row -> (String) row[0], row -> ((Number) row[1]).longValue()));
        long all = parked.values().stream().mapToLong(Long::longValue).sum();
        return rows.stream().map(row -> {
            String scope = (String) row[0];
            long waiting = PausedDispatch.ALL.equals(scope) ? all : parked.getOrDefault(scope, 0L);
            return new Pause(scope, (String) row[1], (String) row[2], utc(row[3]), waiting);
        }).toList();
    }

    /** Pauses {@code scope}; pausing what is paused already changes nothing (and says so in the audit log). */
    public Outcome pause(String scope, String operator, String reason) {
        requirePausable(scope);
        int inserted = em.createNativeQuery("INSERT INTO dispatch_pause (scope, paused_by, reason, paused_at)"
                        + " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (scope) DO NOTHING")
                .setParameter(1, scope)
                .setParameter(2, operator)
                .setParameter(3, reason)
                .setParameter(4, clocks.now())
                .executeUpdate();
        audit.record(operator, "pause", scope, reason, inserted == 1 ? "paused" : "already paused");
        LOG.log(Level.INFO, "Dispatch of {0} {1} by operator {2} ({3})",
                new Object[] {scope, inserted == 1 ? "paused" : "already paused", operator, reason});
        return new Outcome(inserted == 1, 0);
    }

    /**
     * Resumes {@code scope}: deletes its row — waiting for claims that read it to commit (they hold it
     * share-locked) — then unparks the records parked on it and announces them. A record parked on an
     * operation still paused by another scope parks again when claimed. Any paused scope can be resumed,
     * even one no workflow names any more (a deployment renamed the operation), and resuming
     * {@value PausedDispatch#ALL} unparks every parked record whatever is paused: there is always a way
     * out. Otherwise resuming what is not paused changes nothing.
     */
    public Outcome resume(String scope, String operator, String reason) {
        em.createNativeQuery(RESUME_LOCK_SQL).executeUpdate();
        int deleted = em.createNativeQuery(RESUME_SQL)
                .setParameter(1, scope).executeUpdate();
        List<String> unparked = deleted == 0 && !PausedDispatch.ALL.equals(scope) ? List.of()
                : store.unpark(scope, clocks.now());
        if (deleted == 0 && unparked.isEmpty()) {
            return new Outcome(false, 0);
        }
        unparked.forEach(dispatchQueue::announce);
        String outcome = (deleted == 0 ? "was not paused; " : "resumed; ") + unparked.size() + " waiting orders announced";
        audit.record(operator, "resume", scope, reason, outcome);
        LOG.log(Level.INFO, "Dispatch of {0}: {1}, by operator {2} ({3})", new Object[] {scope, outcome, operator, reason});
        return new Outcome(true, unparked.size());
    }

    private void requirePausable(String scope) {
        if (!isPausable(scope)) {
            throw new IllegalArgumentException("'" + scope + "' is neither '" + PausedDispatch.ALL
                    + "' nor an operation of a workflow: " + operations());
        }
    }

}
