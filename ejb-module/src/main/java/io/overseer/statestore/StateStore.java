package io.overseer.statestore;

import io.overseer.platform.NativeParameters;
import io.overseer.workflow.WorkflowVersions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one place that locks and changes state records. Every transition happens under a pessimistic row
 * lock taken here; batch claims use {@code FOR UPDATE SKIP LOCKED} so concurrent pollers never wait on, or
 * take, each other's rows. Callers bring the transaction. Reads that lock nothing live with their
 * readers: the agent's check that its attempt is still current ({@code io.overseer.agent.AttemptFence},
 * outside any transaction), the API's and the console's queries ({@code io.overseer.query.OrderQueries},
 * {@code io.overseer.admin.AdminQueries}), the ids the pollers and the supervisor look for ({@link Sweeps}).
 *
 * <p>Long on purpose: every statement that locks or changes a state record is here, so that the locking rules
 * can be checked in one file. The flow limits' rows, which hold no order, are {@link FlowWindows}'; the orders'
 * contents, read without a lock, {@link OrderContents}'.
 */
@ApplicationScoped
public class StateStore {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    Event<OrderTransitions> transitions;

    public void create(CustomerOrder order, OrderState state) {
        if (order.hasAttributes()) {
            state.carryAttributes();
        }
        em.persist(order);
        em.persist(state);
        saveHistory(state);
    }

    /**
     * Stores the transitions the record made since it was locked. Every caller that moves a record
     * calls this before its transaction ends, so the history commits (or rolls back) with the move —
     * and so do the status notifications of the {@link OrderTransitions} event fired here, and the copy of
     * a settled order's listing columns into its attribute rows ({@link #COPY_LISTING_SQL}).
     */
    public void saveHistory(OrderState state) {
        List<HistoryEntry> entries = state.drainHistory();
        if (state.settlesWithAttributes(!entries.isEmpty())) {
            copyListing(state);
        }
        entries.forEach(em::persist);
        if (!entries.isEmpty()) {
            transitions.fire(new OrderTransitions(state.orderId(), state.processState(), state.submitterNotified(),
                    entries, state.traceParent()));
        }
    }

    /**
     * A settled order's listing columns, copied into each of its attribute rows in the transaction that
     * settles it (V21, decision 0024): they never change again ({@link ProcessState#isSettled}), and a
     * listing driven by an attribute then reads a settled order from the attribute's rows alone, never
     * order_state, so a page costs the same however many orders have finished. The values are the
     * record's in memory, which the same commit writes to order_state (only orders with attributes pay this
     * statement: {@link OrderRecord#settlesWithAttributes}). ?1 workflow, ?2 process_state,
     * ?3 failure_count, ?4 last_error, ?5 paused_on, ?6 updated_at, ?7 not_before, ?8 the order.
     */
    public static final String COPY_LISTING_SQL = "UPDATE order_attribute SET workflow = ?1, process_state = ?2,"
            + " failure_count = ?3, last_error = ?4, paused_on = ?5, updated_at = ?6,"
            // a null is bound untyped (as text): the cast lets it into the timestamp column
            + " not_before = CAST(?7 AS TIMESTAMPTZ) WHERE order_id = ?8";

    private void copyListing(OrderState state) {
        em.createNativeQuery(COPY_LISTING_SQL)
                .setParameter(1, state.workflow())
                .setParameter(2, state.processState().name())
                .setParameter(3, state.failureCount())
                .setParameter(4, state.lastError())
                .setParameter(5, state.pausedOn())
                .setParameter(6, state.updatedAt())
                .setParameter(7, state.notBefore())
                .setParameter(8, state.orderId())
                .executeUpdate();
    }

    public List<HistoryEntry> history(String orderId) {
        return em.createQuery("SELECT h FROM HistoryEntry h WHERE h.orderId = :orderId ORDER BY h.seq", HistoryEntry.class)
                .setParameter("orderId", orderId)
                .getResultList();
    }

    /**
     * History entries of the given orders past the given seq (one query for all of them), oldest first
     * per order. Entries at or before {@code afterSeq} are not read; callers drop those a watcher has.
     */
    public List<HistoryEntry> historySince(Collection<String> orderIds, int afterSeq) {
        return em.createQuery("SELECT h FROM HistoryEntry h WHERE h.orderId IN :ids AND h.seq > :seq"
                        + " ORDER BY h.orderId, h.seq", HistoryEntry.class)
                .setParameter("ids", orderIds)
                .setParameter("seq", afterSeq)
                .getResultList();
    }

    /**
     * What a scheduler may claim: Pending, or Compensating with nobody on it, not parked on a paused
     * operation, and due. ?1 = now. Its first two clauses are the predicate of the partial index
     * order_state_claimable (V10), which the poller's query reads.
     */
    static final String CLAIMABLE = "(process_state = 'Pending' OR (process_state = 'Compensating' AND locked_by IS NULL)"
            // a branch of a parallel group waits to start again while its siblings run (see OrderState#isClaimable)
            + " OR (process_state = 'Processing' AND not_before IS NOT NULL))"
            + " AND paused_on IS NULL AND (not_before IS NULL OR not_before <= ?1)";

    /**
     * The operations paused now, read in the caller's transaction with a share lock on each pause row:
     * a resume deletes its row only after the transactions that read it (and may have parked records
     * on it) have committed, and then unparks what they parked. A claim that read no row, because the
     * pause committed after it began, still starts its attempt: a pause holds claims that begin after it.
     * The claims and replies read the pauses this way inside their lock statements ({@link #PAUSES});
     * this separate read is for the paths that lock one record (an event's delivery).
     */
    @SuppressWarnings("unchecked")
    public PausedDispatch pausedDispatch() {
        List<String> scopes = em.createNativeQuery(PAUSED_SQL).getResultList();
        return scopes.isEmpty() ? PausedDispatch.NONE : new PausedDispatch(Set.copyOf(scopes));
    }

    /** {@link #pausedDispatch}'s statement; public so that the database tests run the very text the product runs. */
    public static final String PAUSED_SQL = "SELECT scope FROM dispatch_pause FOR SHARE";

    /**
     * {@link #PAUSED_SQL} as a column of the batch lock statements ({@link #lockClaimableSql}, {@link #lockAllSql}):
     * the paused scopes, space-separated (operation names have no spaces), or null when nothing is paused.
     * Every claim and reply transaction read the pauses in a statement of their own, on a table that is
     * empty unless an operator paused something: one statement per transaction, 3 per order at a light
     * rate, for nothing. The guarantee is unchanged, because the read is the same read with the same locks
     * in the same transaction:
     * <ul>
     * <li>the pause rows are share-locked until the transaction ends, so a resume's delete (after its
     * {@code LOCK TABLE … EXCLUSIVE}) waits for every transaction that read the pause and may park records on
     * it, and then unparks them;</li>
     * <li>the statement takes its ROW SHARE lock on dispatch_pause when it starts, before it locks any
     * order row, so a claim or reply queues behind a resume already waiting and reads the pauses it left;
     * this is also the order a resume takes its locks in (the table, then the parked orders' rows);</li>
     * <li>an uncorrelated sub-query runs once, when the first row is returned: a statement that locks no
     * order also reads (and locks) no pause, and needs none, as it parks nothing.</li>
     * </ul>
     */
    static final String PAUSES = "(SELECT string_agg(scope, ' ') FROM (SELECT scope FROM dispatch_pause FOR SHARE) p)";

    /** What a batch lock statement returned: the records, with their steps, and the pauses read with them. */
    public record Locked(List<OrderState> states, PausedDispatch paused) {

        public static final Locked NONE = new Locked(List.of(), PausedDispatch.NONE);
    }

    /** {@link #unpark}'s statement: ?1 now, ?2 the operation unless {@code all}. */
    public static String unparkSql(boolean all) {
        return "UPDATE order_state SET paused_on = NULL, updated_at = ?1, version = version + 1"
                + " WHERE paused_on IS NOT NULL" + (all ? "" : " AND paused_on = ?2") + " RETURNING order_id";
    }

    /**
     * Clears the parking of the records waiting for {@code operation} (or of every parked record, for
     * {@link PausedDispatch#ALL}) and returns their ids, for the caller to announce. Their updated_at
     * moves to now, so that the stranded-order poller finds them if an announcement is lost.
     */
    @SuppressWarnings("unchecked")
    public List<String> unpark(String scope, OffsetDateTime now) {
        boolean all = PausedDispatch.ALL.equals(scope);
        var query = em.createNativeQuery(unparkSql(all));
        query.setParameter(1, now);
        if (!all) {
            query.setParameter(2, scope);
        }
        return query.getResultList();
    }

    /** Locks the task's row (SELECT … FOR UPDATE) until the transaction ends. */
    public Optional<OrderState> lock(String orderId) {
        return Optional.ofNullable(em.find(OrderState.class, orderId, LockModeType.PESSIMISTIC_WRITE));
    }

    /**
     * Locks, until the transaction ends, those of the given records that a scheduler may claim now, and
     * returns them with their steps. Rows another transaction holds are skipped, not waited for: whoever
     * holds one is claiming it or moving it on, and a hint for it is then moot.
     */
    @SuppressWarnings("unchecked")
    public Locked lockClaimable(Collection<String> orderIds, OffsetDateTime now) {
        if (orderIds.isEmpty()) {
            return Locked.NONE;
        }
        var query = em.createNativeQuery(lockClaimableSql(orderIds.size()));
        query.setParameter(1, now);
        NativeParameters.bind(query, 2, orderIds);
        return locked(query.getResultList());
    }

    /**
     * {@link #lockClaimable}'s statement for {@code ids} ids: ?1 now, ?2 onwards the ids. Returns each locked
     * id with the pauses ({@link #PAUSES}).
     */
    public static String lockClaimableSql(int ids) {
        return "SELECT order_id, " + PAUSES + " FROM order_state WHERE " + CLAIMABLE
                + " AND order_id IN (" + NativeParameters.placeholders(2, ids) + ") ORDER BY order_id FOR UPDATE OF order_state SKIP LOCKED";
    }

    /**
     * Makes up to {@code limit} waiting records held by {@code operation}'s flow limit claimable now,
     * longest waiting first, and returns them for the caller to announce: a freed slot starts them at once
     * rather than at their retry instant. Rows another transaction holds, and rows an earlier slot released
     * already (no not-before left), are skipped.
     */
    @SuppressWarnings("unchecked")
    public List<String> releaseThrottled(String operation, int limit) {
        return em.createNativeQuery(RELEASE_THROTTLED_SQL)
                .setParameter(1, operation)
                .setParameter(2, limit)
                .getResultList();
    }

    /** {@link #releaseThrottled}'s statement; public so that the database tests run the very text. */
    public static final String RELEASE_THROTTLED_SQL = "UPDATE order_state SET not_before = NULL WHERE order_id IN ("
            + "SELECT order_id FROM order_state WHERE throttled_on = ?1 AND not_before IS NOT NULL AND paused_on IS NULL"
            + " AND (process_state = 'Pending' OR (process_state = 'Compensating' AND locked_by IS NULL))"
            + " ORDER BY not_before LIMIT ?2 FOR UPDATE SKIP LOCKED) RETURNING order_id";

    /** Per limited operation: records waiting for its limit (a metrics gauge; attempts running: {@link FlowWindows#runningOf}). */
    public long throttledCount(String operation) {
        return ((Number) em.createNativeQuery("SELECT count(*) FROM order_state WHERE throttled_on = ?1")
                .setParameter(1, operation).getSingleResult()).longValue();
    }

    /**
     * Locks those of the given records that an attempt is running on (only they can take a reply),
     * waiting for rows another transaction holds. Rows are locked in id order, so two transactions
     * locking overlapping batches never deadlock; an unclaimed record is not locked, so a late reply
     * never makes a dispatch hint's claim skip it.
     */
    @SuppressWarnings("unchecked")
    public Locked lockAll(Collection<String> orderIds) {
        if (orderIds.isEmpty()) {
            return Locked.NONE;
        }
        var query = em.createNativeQuery(lockAllSql(orderIds.size()));
        NativeParameters.bind(query, 1, orderIds);
        return locked(query.getResultList());
    }

    /** {@link #lockAll}'s statement for {@code ids} ids (?1 onwards): each locked id with the pauses ({@link #PAUSES}). */
    public static String lockAllSql(int ids) {
        return "SELECT order_id, " + PAUSES + " FROM order_state WHERE locked_by IS NOT NULL AND order_id IN ("
                + NativeParameters.placeholders(1, ids) + ") ORDER BY order_id FOR UPDATE OF order_state";
    }

    /** The rows a batch lock statement returned (id, pauses): the records with their steps, and the pauses. */
    private Locked locked(List<Object[]> locked) {
        if (locked.isEmpty()) {
            return Locked.NONE;
        }
        String scopes = (String) locked.get(0)[1]; // the same on every row: one read per statement
        PausedDispatch paused = scopes == null ? PausedDispatch.NONE : new PausedDispatch(Set.of(scopes.split(" ")));
        return new Locked(load(locked.stream().map(row -> (String) row[0]).toList()), paused);
    }

    /**
     * The records of rows this transaction has locked, with their steps, in one query. Not {@code SELECT
     * DISTINCT}: EclipseLink passes a JPQL DISTINCT on to the SQL, where PostgreSQL would sort or hash
     * every joined row (36 columns, event payloads included) for nothing, since each row holds a distinct
     * step. The join yields a record once per step; the duplicates are dropped here instead.
     */
    private List<OrderState> load(Collection<String> lockedIds) {
        return em.createQuery(LOAD_JPQL, OrderState.class)
                .setParameter("ids", lockedIds)
                .getResultStream()
                .distinct() // by identity: one instance per record in the persistence context
                .toList();
    }

    /** {@link #load}'s query. */
    static final String LOAD_JPQL = "SELECT s FROM OrderState s LEFT JOIN FETCH s.steps WHERE s.orderId IN :ids";

    public Optional<CustomerOrder> order(String orderId) {
        return Optional.ofNullable(em.find(CustomerOrder.class, orderId));
    }

    public Optional<OrderState> read(String orderId) {
        return Optional.ofNullable(em.find(OrderState.class, orderId));
    }

    /**
     * An agent's heartbeat, three statements in the caller's transaction: the order's row is locked first,
     * as every writer of its steps does (the other order would deadlock against a scheduler); the step's
     * heartbeat deadline moves on while that attempt (its epoch) is the one running and has a heartbeat; and
     * the order's summary, the earliest deadline of its running steps, which the supervisor's sweep reads,
     * follows. The rows' versions are left alone: every other writer locks the order's row first and reads
     * these values under the lock. ?1 the new deadline, ?2 order, ?3 epoch, ?4 the step's id.
     */
    public static final String HEARTBEAT_LOCK_SQL = "SELECT order_id FROM order_state WHERE order_id = ?1 FOR UPDATE";
    public static final String HEARTBEAT_SQL = "UPDATE step_state SET heartbeat_by = ?1"
            + " WHERE step_id = ?4 AND order_id = ?2 AND epoch = ?3 AND locked_by IS NOT NULL AND heartbeat_by IS NOT NULL";
    public static final String HEARTBEAT_SUMMARY_SQL = "UPDATE order_state SET heartbeat_by = (SELECT min(heartbeat_by)"
            + " FROM step_state WHERE order_id = ?1 AND locked_by IS NOT NULL) WHERE order_id = ?1";

    /** Records a heartbeat (see {@link #HEARTBEAT_SQL}); false if the attempt is no longer the running one. */
    public boolean heartbeat(String orderId, int stepSeq, long epoch, OffsetDateTime nextBy) {
        if (em.createNativeQuery(HEARTBEAT_LOCK_SQL).setParameter(1, orderId).getResultList().isEmpty()) {
            return false;
        }
        boolean current = em.createNativeQuery(HEARTBEAT_SQL)
                .setParameter(1, nextBy)
                .setParameter(2, orderId)
                .setParameter(3, epoch)
                .setParameter(4, StepState.idOf(orderId, stepSeq))
                .executeUpdate() == 1;
        if (current) {
            em.createNativeQuery(HEARTBEAT_SUMMARY_SQL).setParameter(1, orderId).executeUpdate();
        }
        return current;
    }

    /**
     * Pins the unfinished orders of {@code workflow} that were stored before versions (V12) to
     * {@code version}: they started under the definition of that time, which nobody recorded, and from now
     * on they keep this one rather than whichever a later deployment brings. Returns how many it pinned.
     * An order in Error counts as unfinished: an operator may still resubmit or cancel it.
     */
    public int pinUnversioned(String workflow, String version) {
        return em.createNativeQuery("UPDATE order_state SET workflow_version = ?1, version = version + 1"
                        + " WHERE workflow = ?2 AND workflow_version IS NULL AND " + WorkflowVersions.UNFINISHED)
                .setParameter(1, version)
                .setParameter(2, workflow)
                .executeUpdate();
    }
}
