package io.overseer.admin;

import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.messaging.DeadLetter;
import io.overseer.platform.Clocks;
import io.overseer.platform.HeldLease;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import io.overseer.platform.NativeParameters;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import static io.overseer.platform.Database.utc;

/**
 * Bulk jobs (docs/console.md, "Bulk actions"): an operator's resubmit, cancel or redrive of every order
 * or dead letter a selection matches. A preview counts and samples the targets; a start fixes them (one
 * {@code bulk_item} each, what the operator confirmed, not whatever matches later), records the job in
 * the audit log once, with its selection, and opens the job's lease; {@link BulkJobRunner} then acts on
 * the items in the background, on whichever instance holds that lease. The home of the SQL that writes
 * the bulk tables.
 */
@Stateless
public class BulkJobs {

    private static final Logger LOG = Logger.getLogger(BulkJobs.class.getName());

    /** The most targets one job may have: a selection matching more is refused (narrow it, or run several). */
    public static final int MAX_TARGETS = 100_000;
    /** The most targets a selection may name one by one. */
    public static final int MAX_IDS = 1_000;
    /** The most dead letters a redrive by filter reads from the broker, oldest first. */
    public static final int MAX_DEAD_LETTERS = 5_000;
    /** How many targets a preview shows. */
    static final int SAMPLE = 10;

    /** A job as the admin API shows it; {@code runner} is the instance running it now, if any. */
    @JsonbNillable
    @JsonbPropertyOrder({"id", "action", "state", "operator", "reason", "selection", "rate", "total", "done", "skipped",
            "failed", "pending", "runner", "createdAt", "updatedAt", "finishedAt", "endedBy", "endedReason"})
    public record Job(long id, BulkAction action, String state, String operator, String reason, String selection, int rate,
                      int total, int done, int skipped, int failed, int pending, String runner, OffsetDateTime createdAt,
                      OffsetDateTime updatedAt, OffsetDateTime finishedAt, String endedBy, String endedReason) {
    }

    /** One target of a job: its outcome (null while pending: pending, done, skipped, failed) and why. */
    @JsonbNillable
    @JsonbPropertyOrder({"seq", "target", "outcome", "detail", "actedAt"})
    public record Item(int seq, String target, String outcome, String detail, OffsetDateTime actedAt) {
    }

    /**
     * What a job would act on: how many targets match ({@code matched}; more than {@link #MAX_TARGETS}
     * is {@code tooMany}), and the first few, as orders or as dead letters. For named orders,
     * {@code unknown} counts the ids that name no order (the job would skip them, saying so). For a
     * redrive by filter, {@code partial} says the broker held more dead letters than were read.
     */
    @JsonbNillable
    @JsonbPropertyOrder({"action", "matched", "tooMany", "unknown", "partial", "orders", "deadLetters"})
    public record Preview(BulkAction action, long matched, boolean tooMany, Integer unknown, Boolean partial,
                          List<AdminQueries.Line> orders, List<DeadLetter> deadLetters) {
    }

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    AdminQueries queries;
    @Inject
    BrokerQueues broker;
    @Inject
    AuditLog audit;
    @Inject
    JobLease leases;
    @Inject
    Clocks clocks;

    /** The lease that makes one instance at a time run job {@code id}. */
    static String leaseOf(long id) {
        return "bulk-" + id;
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Preview preview(BulkAction action, BulkSelection selection) throws BrokerUnavailableException {
        requireRestricted(selection);
        if (!action.onOrders()) {
            DeadLetters letters = deadLetters(selection);
            return new Preview(action, letters.matched().size(), false, null, letters.partial(),
                    null, letters.matched().subList(0, Math.min(SAMPLE, letters.matched().size())));
        }
        if (selection.named()) {
            List<String> ids = distinct(selection.ids());
            List<AdminQueries.Line> known = queries.lines(ids); // at most MAX_IDS, distinct
            return new Preview(action, ids.size(), false, ids.size() - known.size(), null,
                    known.subList(0, Math.min(SAMPLE, known.size())), null);
        }
        AdminQueries.Matching matching = queries.matching(selection.filter());
        long matched = count(matching);
        return new Preview(action, Math.min(matched, MAX_TARGETS), matched > MAX_TARGETS, null, null,
                queries.list(selection.filter(), null, null, SAMPLE), null);
    }

    /**
     * Starts a job: its row, one item per target (fixed now), its lease (free: the first instance to look
     * runs it) and one audit entry. Refused, writing nothing, if the selection matches everything without
     * {@code everything}, nothing, or more than {@link #MAX_TARGETS}.
     */
    public Job start(BulkAction action, BulkSelection selection, String operator, String reason, int rate)
            throws BrokerUnavailableException {
        requireRestricted(selection);
        OffsetDateTime now = clocks.now();
        long id = ((Number) em.createNativeQuery("INSERT INTO bulk_job (action, state, operator, reason, selection, rate,"
                        + " total, created_at, updated_at) VALUES (?1, 'Running', ?2, ?3, ?4, ?5, 0, ?6, ?6) RETURNING id")
                .setParameter(1, action.name())
                .setParameter(2, operator)
                .setParameter(3, reason)
                .setParameter(4, selection.shown())
                .setParameter(5, rate)
                .setParameter(6, now)
                .getSingleResult()).longValue();
        int total = action.onOrders() && !selection.named() ? insertMatching(id, queries.matching(selection.filter()))
                : insertNamed(id, action.onOrders() ? distinct(selection.ids())
                : deadLetters(selection).matched().stream().map(letter -> Long.toString(letter.messageId())).toList());
        if (total == 0) {
            throw new BulkRefusedException(selection.named() ? "ids" : "filter", "The selection matches nothing");
        }
        if (total > MAX_TARGETS) {
            throw new BulkRefusedException("filter", "The selection matches more than " + MAX_TARGETS
                    + " orders, the most one job may act on: narrow it (for example by age or an attribute)");
        }
        em.createNativeQuery("UPDATE bulk_job SET total = ?1 WHERE id = ?2")
                .setParameter(1, total).setParameter(2, id).executeUpdate();
        leases.open(leaseOf(id), now);
        audit.record(operator, action.audited(), "bulk job " + id, reason, "started on " + total
                + (action.onOrders() ? " orders" : " dead letters") + " selected by " + selection.shown());
        LOG.log(Level.INFO, "Bulk job {0} ({1} of {2} targets) started by operator {3} ({4}): {5}",
                new Object[] {id, action, total, operator, reason, selection.shown()});
        return job(id).orElseThrow();
    }

    private void requireRestricted(BulkSelection selection) {
        if (!selection.restricts() && !selection.everything()) {
            throw new BulkRefusedException("everything", "The selection has no filter, so it matches everything:"
                    + " say \"everything\": true to act on every one, or add a filter");
        }
        if (selection.named() && (selection.ids().isEmpty() || selection.ids().size() > MAX_IDS)) {
            throw new BulkRefusedException("ids", "Name 1 to " + MAX_IDS + " targets");
        }
    }

    private long count(AdminQueries.Matching matching) {
        var query = em.createNativeQuery("SELECT count(*) FROM (SELECT 1" + matching.sql() + " LIMIT "
                + (MAX_TARGETS + 1) + ") matched");
        NativeParameters.bind(query, 1, matching.parameters());
        return ((Number) query.getSingleResult()).longValue();
    }

    /** The orders of the filter as items, oldest first; up to one more than a job may have, to tell. */
    private int insertMatching(long id, AdminQueries.Matching matching) {
        List<Object> parameters = new ArrayList<>(matching.parameters());
        parameters.add(id);
        var query = em.createNativeQuery("INSERT INTO bulk_item (job_id, seq, target) SELECT ?" + parameters.size()
                + ", row_number() OVER (ORDER BY created_at, order_id), order_id FROM (SELECT s.created_at, s.order_id"
                + matching.sql() + " ORDER BY s.created_at, s.order_id LIMIT " + (MAX_TARGETS + 1) + ") matched");
        NativeParameters.bind(query, 1, parameters);
        return query.executeUpdate();
    }

    /** Named targets as items, in the order given (distinct already). */
    private int insertNamed(long id, List<String> targets) {
        int inserted = 0;
        for (int from = 0; from < targets.size(); from += 500) {
            List<String> chunk = targets.subList(from, Math.min(targets.size(), from + 500));
            StringBuilder sql = new StringBuilder("INSERT INTO bulk_item (job_id, seq, target) VALUES ");
            List<Object> parameters = new ArrayList<>();
            parameters.add(id);
            for (int i = 0; i < chunk.size(); i++) {
                parameters.add(from + i + 1);
                parameters.add(chunk.get(i));
                sql.append(i == 0 ? "" : ", ").append("(?1, ?").append(parameters.size() - 1).append(", ?")
                        .append(parameters.size()).append(")");
            }
            var query = em.createNativeQuery(sql.toString());
            NativeParameters.bind(query, 1, parameters);
            inserted += query.executeUpdate();
        }
        return inserted;
    }

    private record DeadLetters(List<DeadLetter> matched, boolean partial) {
    }

    private DeadLetters deadLetters(BulkSelection selection) throws BrokerUnavailableException {
        List<DeadLetter> read = broker.deadLetters(MAX_DEAD_LETTERS);
        List<DeadLetter> matched = read.stream().filter(letter -> selection.named()
                        ? selection.ids().contains(Long.toString(letter.messageId()))
                        : (selection.originalQueue() == null || selection.originalQueue().equals(letter.originalQueue()))
                        && (selection.reasonContains() == null
                        || letter.reason() != null && letter.reason().contains(selection.reasonContains())))
                .toList();
        return new DeadLetters(matched, read.size() >= MAX_DEAD_LETTERS);
    }

    private static List<String> distinct(List<String> ids) {
        return List.copyOf(new LinkedHashSet<>(ids));
    }

    private static final String JOB_COLUMNS = "j.id, j.action, j.state, j.operator, j.reason, j.selection, j.rate,"
            + " j.total, j.done, j.skipped, j.failed, l.holder, j.created_at, j.updated_at, j.finished_at, j.ended_by,"
            + " j.ended_reason FROM bulk_job j LEFT JOIN job_lease l ON l.name = 'bulk-' || j.id AND l.expires_at >= ?1";

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    @SuppressWarnings("unchecked")
    public Optional<Job> job(long id) {
        List<Object[]> rows = em.createNativeQuery("SELECT " + JOB_COLUMNS + " WHERE j.id = ?2")
                .setParameter(1, clocks.now()).setParameter(2, id).getResultList();
        return rows.stream().findFirst().map(BulkJobs::job);
    }

    /** The newest jobs first, up to {@code limit}, before job {@code beforeId} if given. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    @SuppressWarnings("unchecked")
    public List<Job> jobs(int limit, Long beforeId) {
        List<Object[]> rows = em.createNativeQuery("SELECT " + JOB_COLUMNS + " WHERE j.id < ?2 ORDER BY j.id DESC LIMIT ?3")
                .setParameter(1, clocks.now())
                .setParameter(2, beforeId == null ? Long.MAX_VALUE : beforeId)
                .setParameter(3, limit)
                .getResultList();
        return rows.stream().map(BulkJobs::job).toList();
    }

    private static Job job(Object[] row) {
        int total = ((Number) row[7]).intValue();
        int done = ((Number) row[8]).intValue();
        int skipped = ((Number) row[9]).intValue();
        int failed = ((Number) row[10]).intValue();
        return new Job(((Number) row[0]).longValue(), BulkAction.valueOf((String) row[1]), (String) row[2], (String) row[3],
                (String) row[4], (String) row[5], ((Number) row[6]).intValue(), total, done, skipped, failed,
                total - done - skipped - failed, (String) row[11], utc(row[12]), utc(row[13]), orNull(row[14]),
                (String) row[15], (String) row[16]);
    }

    /** A job's items in order after {@code afterSeq}, those with {@code outcome} only if given ("pending": none yet). */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    @SuppressWarnings("unchecked")
    public List<Item> items(long id, String outcome, int afterSeq, int limit) {
        String which = outcome == null ? "" : "pending".equals(outcome) ? " AND outcome IS NULL" : " AND outcome = ?4";
        var query = em.createNativeQuery("SELECT seq, target, outcome, detail, acted_at FROM bulk_item"
                        + " WHERE job_id = ?1 AND seq > ?2" + which + " ORDER BY seq LIMIT ?3")
                .setParameter(1, id).setParameter(2, afterSeq).setParameter(3, limit);
        if (which.contains("?4")) {
            query.setParameter(4, outcome);
        }
        List<Object[]> rows = query.getResultList();
        return rows.stream().map(row -> new Item(((Number) row[0]).intValue(), (String) row[1], (String) row[2],
                (String) row[3], orNull(row[4]))).toList();
    }

    /**
     * Cancels a running job: what it has not acted on yet is skipped, and no instance runs it any more.
     * The lease goes first: its delete waits for an item being acted on (which holds the lease shared),
     * in the order the runner takes its locks (the lease, then the item, then the job), so neither waits
     * for the other. False if the job is not running (finished, or cancelled already).
     */
    public boolean cancel(long id, String operator, String reason) {
        leases.close(leaseOf(id));
        OffsetDateTime now = clocks.now();
        int cancelled = em.createNativeQuery("UPDATE bulk_job SET state = 'Cancelled', ended_by = ?1, ended_reason = ?2,"
                        + " finished_at = ?3, updated_at = ?3 WHERE id = ?4 AND state = 'Running'")
                .setParameter(1, operator).setParameter(2, reason).setParameter(3, now).setParameter(4, id)
                .executeUpdate();
        if (cancelled == 0) {
            return false;
        }
        int skipped = em.createNativeQuery("UPDATE bulk_item SET outcome = 'skipped', detail = ?1, acted_at = ?2"
                        + " WHERE job_id = ?3 AND outcome IS NULL")
                .setParameter(1, cut("job cancelled by " + operator + ": " + reason)).setParameter(2, now)
                .setParameter(3, id).executeUpdate();
        em.createNativeQuery("UPDATE bulk_job SET skipped = skipped + ?1 WHERE id = ?2")
                .setParameter(1, skipped).setParameter(2, id).executeUpdate();
        audit.record(operator, "cancel-bulk-job", "bulk job " + id, reason, skipped + " targets not acted on");
        LOG.log(Level.INFO, "Bulk job {0} cancelled by operator {1} ({2}): {3} targets not acted on",
                new Object[] {id, operator, reason, skipped});
        return true;
    }

    // The runner's statements, each in the caller's transaction (BulkItems).

    /** The running jobs, oldest first. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    @SuppressWarnings("unchecked")
    public List<Long> running() {
        List<Number> ids = em.createNativeQuery("SELECT id FROM bulk_job WHERE state = 'Running' ORDER BY id")
                .getResultList();
        return ids.stream().map(Number::longValue).toList();
    }

    /** The next items to act on, in order. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<Item> pending(long id, int limit) {
        return items(id, "pending", 0, limit);
    }

    /**
     * How many of the orders the job acted on are not finished yet (Pending, Processing, Compensating):
     * what the runner keeps under {@link BulkSettings#inFlight}.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public long unfinished(long id) {
        return ((Number) em.createNativeQuery("SELECT count(*) FROM bulk_item i JOIN order_state s ON s.order_id = i.target"
                        + " WHERE i.job_id = ?1 AND i.outcome = 'done'"
                        + " AND s.process_state IN ('Pending', 'Processing', 'Compensating')")
                .setParameter(1, id).getSingleResult()).longValue();
    }

    /** Locks a pending item; false if it has an outcome already (acted on by a former runner). */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public boolean lockPending(long id, int seq) {
        return !em.createNativeQuery("SELECT seq FROM bulk_item WHERE job_id = ?1 AND seq = ?2 AND outcome IS NULL"
                        + " FOR UPDATE")
                .setParameter(1, id).setParameter(2, seq).getResultList().isEmpty();
    }

    /** Records an item's outcome and counts it in the job; false if it had one already. */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public boolean record(long id, int seq, BulkItems.Outcome outcome) {
        OffsetDateTime now = clocks.now();
        int updated = em.createNativeQuery("UPDATE bulk_item SET outcome = ?1, detail = ?2, acted_at = ?3"
                        + " WHERE job_id = ?4 AND seq = ?5 AND outcome IS NULL")
                .setParameter(1, outcome.outcome()).setParameter(2, cut(outcome.detail())).setParameter(3, now)
                .setParameter(4, id).setParameter(5, seq).executeUpdate();
        if (updated == 1) {
            String column = switch (outcome.outcome()) {
                case "done" -> "done";
                case "skipped" -> "skipped";
                default -> "failed";
            };
            em.createNativeQuery("UPDATE bulk_job SET " + column + " = " + column + " + 1, updated_at = ?1 WHERE id = ?2")
                    .setParameter(1, now).setParameter(2, id).executeUpdate();
        }
        return updated == 1;
    }

    /** Ends a job with nothing left pending: Finished, and its lease gone. Under the runner's fence. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void finish(HeldLease lease, long id) throws LeaseLostException {
        leases.fence(lease);
        if (!pending(id, 1).isEmpty()) {
            return;
        }
        OffsetDateTime now = clocks.now();
        int finished = em.createNativeQuery("UPDATE bulk_job SET state = 'Finished', finished_at = ?1, updated_at = ?1"
                        + " WHERE id = ?2 AND state = 'Running'")
                .setParameter(1, now).setParameter(2, id).executeUpdate();
        leases.close(lease.job());
        if (finished == 1) {
            job(id).ifPresent(job -> LOG.log(Level.INFO, "Bulk job {0} ({1}) finished: {2} done, {3} skipped, {4} failed",
                    new Object[] {id, job.action(), job.done(), job.skipped(), job.failed()}));
        }
    }

    private static OffsetDateTime orNull(Object value) {
        return value == null ? null : utc(value);
    }

    private static String cut(String text) {
        return text == null || text.length() <= 300 ? text : text.substring(0, 299) + "…";
    }
}
