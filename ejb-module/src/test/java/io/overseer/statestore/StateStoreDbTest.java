package io.overseer.statestore;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mockito.ArgumentCaptor;

/**
 * {@link StateStore}'s own code — JPQL, native queries with EclipseLink's binding, pessimistic and
 * SKIP LOCKED locks, the entity writes of a claim — on PostgreSQL with the migrations, through the
 * application's persistence unit. The races of the claim's statements at scale are {@link ClaimDbTest}'s;
 * here every method of the store runs at least once as the product calls it.
 */
class StateStoreDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 24, 10, 0, 0, 0, ZoneOffset.UTC);
    private static final Duration COMPLETE_BY = Duration.ofSeconds(30);
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            new StepDefinition("reserve", "reserve-inventory", "release-inventory", COMPLETE_BY, 2, null, null,
                    OnExhausted.COMPENSATE, HEARTBEAT),
            new StepDefinition("charge", "charge-payment", "refund-payment", COMPLETE_BY, 2, null, null,
                    OnExhausted.COMPENSATE)));
    private static final Actor SUBMISSION = Actor.of(Actor.Kind.submission, "node-a");
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");

    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);
    private DataSource db;
    private Event<OrderTransitions> transitions;
    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @BeforeEach
    @SuppressWarnings("unchecked")
    void emptyStore() throws SQLException {
        db = DB.getTestDatabase();
        transitions = mock(Event.class);
        try (Connection c = db.getConnection()) {
            update(c, "TRUNCATE customer_order, dispatch_pause, flow_limit CASCADE");
            // as WorkflowVersions records each definition the application starts with (order_state's foreign key)
            update(c, "INSERT INTO workflow_version (workflow, version, definition, first_seen) VALUES (?1, ?2, ?3, ?4)"
                    + " ON CONFLICT DO NOTHING", ORDER.name(), ORDER.version(), ORDER.canonicalJson(), T0);
        }
    }

    @AfterEach
    void stopOther() {
        other.shutdownNow();
    }

    @Test
    void aCreatedOrderReadsBackWithItsLinesStepsAndHistoryAndItsCreationIsAnnounced() throws Exception {
        submit("o-1", T0, new OrderLine("sku-b", 2), new OrderLine("sku-a", 1));
        submit("o-2", T0);

        OrderState state = inStore(store -> store.read("o-1")).orElseThrow();
        assertEquals(ProcessState.Pending, state.processState());
        assertEquals(List.of("reserve:NotStarted", "charge:NotStarted"),
                state.steps().stream().map(step -> step.name() + ":" + step.state()).toList());
        assertEquals(List.of("sku-b x2", "sku-a x1"), lines(inStore(store -> store.order("o-1")).orElseThrow().lines()),
                "lines in their order");
        assertEquals(Optional.empty(), inStore(store -> store.read("nobody")));

        Map<String, OrderContent> contents = inStore(store -> contents(store).of(List.of("o-2", "o-1", "nobody")));
        assertEquals(List.of("o-1", "o-2"), List.copyOf(contents.keySet()), "known orders only, by id");
        assertEquals("customer-o-1", contents.get("o-1").customerId());
        assertEquals(List.of("sku-b x2", "sku-a x1"), lines(contents.get("o-1").lines()));
        assertEquals(List.of(), contents.get("o-2").lines(), "an order without lines has none, not null");

        assertEquals(List.of("Pending"), inStore(store -> store.history("o-1")).stream().map(HistoryEntry::toState).toList());
        ArgumentCaptor<OrderTransitions> fired = ArgumentCaptor.forClass(OrderTransitions.class);
        verify(transitions, times(2)).fire(fired.capture());
        assertEquals(List.of("o-1:Pending:1", "o-2:Pending:1"), fired.getAllValues().stream()
                .map(t -> t.orderId() + ":" + t.processState() + ":" + t.entries().size()).toList());
    }

    @Test
    void historySinceReadsTheEntriesOfManyOrdersAfterASeqOldestFirstPerOrder() throws Exception {
        submit("o-1", T0);
        submit("o-2", T0);
        submit("o-3", T0);
        claim(List.of("o-1", "o-2"), T0.plusSeconds(1));

        List<HistoryEntry> since = inStore(store -> store.historySince(List.of("o-2", "o-1"), 1));
        assertFalse(since.isEmpty());
        assertTrue(since.stream().allMatch(entry -> entry.seq() > 1), "the creation entries (seq 1) are not read");
        List<String> orders = since.stream().map(HistoryEntry::orderId).distinct().toList();
        assertEquals(List.of("o-1", "o-2"), orders, "by order, o-3 not at all");
        List<HistoryEntry> ofOne = since.stream().filter(entry -> entry.orderId().equals("o-1")).toList();
        for (int i = 1; i < ofOne.size(); i++) {
            assertTrue(ofOne.get(i - 1).seq() < ofOne.get(i).seq(), "oldest first");
        }
        assertEquals(inStore(store -> store.history("o-1")).subList(1, ofOne.size() + 1).stream().map(HistoryEntry::seq).toList(),
                ofOne.stream().map(HistoryEntry::seq).toList());
    }

    @Test
    void aLockedRecordMakesASecondLockWaitUntilTheFirstTransactionEnds() throws Exception {
        submit("o-1", T0);
        assertEquals(Optional.empty(), inStore(store -> store.lock("nobody")));

        EntityManager first = jpa.begin();
        try {
            assertTrue(store(first).lock("o-1").isPresent());
            CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> {
                try {
                    return inStore(store -> store.lock("o-1").orElseThrow().processState().name());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, other);
            MigratedDatabase.awaitLockWaiters(db, 1);
            assertFalse(second.isDone(), "the second lock waits for the first transaction");
            JpaDatabase.end(first, true);
            assertEquals("Pending", second.get(10, TimeUnit.SECONDS));
        } finally {
            JpaDatabase.end(first, false);
        }
    }

    @Test
    void lockClaimableSkipsRowsAnotherTransactionHoldsAndAClaimThroughItIsStored() throws Exception {
        submit("o-1", T0);
        submit("o-2", T0);
        submit("o-3", T0, T0.plusMinutes(5));
        assertEquals(StateStore.Locked.NONE, inStore(store -> store.lockClaimable(List.of(), T0)));

        EntityManager holder = jpa.begin();
        try {
            assertEquals(List.of("o-1"), ids(store(holder).lockClaimable(List.of("o-1"), T0.plusSeconds(1)).states()));
            List<OrderState> claimable = inStore(store -> {
                store.em.createNativeQuery("SET LOCAL lock_timeout = '5s'").executeUpdate(); // a wait fails, not hangs
                return store.lockClaimable(List.of("o-1", "o-2", "o-3"), T0.plusSeconds(1)).states();
            });
            assertEquals(List.of("o-2"), ids(claimable), "o-1 held: skipped; o-3 not due");
            assertEquals(2, claimable.get(0).steps().size(), "loaded with its steps");
        } finally {
            JpaDatabase.end(holder, false);
        }

        List<Attempt> attempts = claim(List.of("o-2"), T0.plusSeconds(2));
        assertEquals(1, attempts.size());
        try (Connection c = db.getConnection()) {
            assertEquals(List.of("Processing:node-a:1:" + attempts.get(0).epoch()), strings(c,
                    "SELECT process_state || ':' || locked_by || ':' || epoch || ':' || (SELECT epoch FROM step_state"
                            + " WHERE order_id = ?1 AND seq = 0) FROM order_state WHERE order_id = ?1", "o-2"));
        }
        assertEquals(List.of(), ids(inStore(store -> store.lockClaimable(List.of("o-2"), T0.plusSeconds(3)).states())),
                "claimed: no longer claimable");
        assertEquals(List.of("o-2"), inStore(store -> sweeps(store).expired(T0.plusSeconds(2).plus(COMPLETE_BY).plusSeconds(1), 10)));
        assertEquals(List.of("o-2"), inStore(store -> sweeps(store).expired(T0.plusSeconds(2).plus(HEARTBEAT).plusSeconds(1), 10)),
                "a missed heartbeat expires it before its complete-by");
        assertEquals(List.of(), inStore(store -> sweeps(store).expired(T0.plusSeconds(3), 10)));
        assertEquals(List.of("o-1"), inStore(store -> sweeps(store).stranded(T0.plusSeconds(1), T0.plusSeconds(10), 10)));
        OffsetDateTime o3Due = T0.plusMinutes(5);
        assertEquals(List.of("o-1"), inStore(store -> sweeps(store).stranded(o3Due.minusSeconds(8), o3Due.plusSeconds(2), 10)),
                "o-3, untouched for minutes but due for 2 s only, is the due-order poller's, not stranded");
        assertEquals(List.of("o-1", "o-3"), inStore(store -> sweeps(store).stranded(o3Due.plusSeconds(1), o3Due.plusSeconds(11), 10))
                .stream().sorted().toList(), "due for 11 s and still untouched: its claim was lost");
        assertEquals(List.of("o-3"), inStore(store -> sweeps(store).due(T0.plusMinutes(5), 10)));
        assertEquals(List.of(), inStore(store -> sweeps(store).due(T0.plusMinutes(4), 10)));
    }

    @Test
    void lockAllLocksAndReturnsOnlyTheRecordsAnAttemptRunsOn() throws Exception {
        submit("o-1", T0);
        submit("o-2", T0);
        claim(List.of("o-1"), T0);
        assertEquals(StateStore.Locked.NONE, inStore(store -> store.lockAll(List.of())));

        EntityManager holder = jpa.begin();
        try {
            StateStore.Locked locked = store(holder).lockAll(List.of("o-2", "o-1", "nobody"));
            assertEquals(List.of("o-1"), ids(locked.states()));
            assertEquals(List.of("o-2"), ids(inStore(store -> store.lockClaimable(List.of("o-1", "o-2"), T0).states())),
                    "the unclaimed record was not locked: its claim is not held up");
            CompletableFuture<List<OrderState>> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return inStore(store -> store.lockAll(List.of("o-1")).states());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, other);
            MigratedDatabase.awaitLockWaiters(db, 1);
            assertFalse(waiting.isDone(), "a second batch of replies waits for the locked record");
            JpaDatabase.end(holder, true);
            assertEquals(List.of("o-1"), ids(waiting.get(10, TimeUnit.SECONDS)));
        } finally {
            JpaDatabase.end(holder, false);
        }
    }

    @Test
    void aHeartbeatMovesTheRunningAttemptsDeadlineAndTheSummaryButAStaleAttemptsChangesNothing() throws Exception {
        submit("o-1", T0);
        Attempt attempt = claim(List.of("o-1"), T0).get(0);
        OffsetDateTime next = T0.plusSeconds(4).plus(HEARTBEAT);

        assertTrue(this.<Boolean>inStore(store -> store.heartbeat("o-1", 0, attempt.epoch(), next)));
        assertEquals(List.of(next + "|" + next), heartbeats("o-1"));

        assertFalse(this.<Boolean>inStore(store -> store.heartbeat("o-1", 0, attempt.epoch() + 1, next.plusSeconds(9))), "another epoch");
        assertFalse(this.<Boolean>inStore(store -> store.heartbeat("o-1", 1, attempt.epoch(), next.plusSeconds(9))), "a step not running");
        assertFalse(this.<Boolean>inStore(store -> store.heartbeat("nobody", 0, 1, next.plusSeconds(9))));
        assertEquals(List.of(next + "|" + next), heartbeats("o-1"), "unchanged");
    }

    @Test
    void aPauseIsReadByTheStoreParksAClaimAndAResumeUnparksOnlyItsOperation() throws Exception {
        submit("o-1", T0);
        submit("o-2", T0);
        submit("o-3", T0);
        assertEquals(PausedDispatch.NONE, inStore(StateStore::pausedDispatch));
        try (Connection c = db.getConnection()) {
            update(c, "INSERT INTO dispatch_pause (scope, paused_by, reason, paused_at) VALUES ('reserve-inventory', 'ops',"
                    + " 'maintenance', ?1)", T0);
        }
        assertEquals(new PausedDispatch(java.util.Set.of("reserve-inventory")), inStore(StateStore::pausedDispatch));
        try (Connection c = db.getConnection()) {
            update(c, "INSERT INTO dispatch_pause (scope, paused_by, reason, paused_at) VALUES ('refund-payment', 'ops',"
                    + " 'maintenance', ?1)", T0);
        }
        assertEquals(new PausedDispatch(java.util.Set.of("reserve-inventory", "refund-payment")),
                inStore(store -> store.lockClaimable(List.of("o-3"), T0).paused()), "read with the lock statement too");
        assertEquals(StateStore.Locked.NONE, inStore(store -> store.lockAll(List.of("o-3"))), "nothing locked, nothing read");
        try (Connection c = db.getConnection()) {
            update(c, "DELETE FROM dispatch_pause WHERE scope = 'refund-payment'");
        }

        claim(List.of("o-1", "o-2"), T0.plusSeconds(1));
        assertNull(inStore(store -> store.read("o-3")).orElseThrow().pausedOn());
        assertEquals("reserve-inventory", inStore(store -> store.read("o-1")).orElseThrow().pausedOn(), "parked, not started");
        try (Connection c = db.getConnection()) {
            update(c, "UPDATE order_state SET paused_on = 'charge-payment' WHERE order_id = 'o-3'");
        }

        assertEquals(List.of(), inStore(store -> store.unpark("refund-payment", T0.plusSeconds(2))));
        assertEquals(List.of("o-1", "o-2"), sorted(inStore(store -> store.unpark("reserve-inventory", T0.plusSeconds(2)))));
        assertEquals(T0.plusSeconds(2).toInstant(), inStore(store -> store.read("o-1")).orElseThrow().updatedAt().toInstant(),
                "touched, so that the stranded-order poller finds it if the announcement is lost");
        assertEquals(List.of("o-3"), inStore(store -> store.unpark(PausedDispatch.ALL, T0.plusSeconds(3))));
    }

    @Test
    void theDatabaseTimeIsReadAsTheStatementRunsNotAsTheTransactionStarted() throws Exception {
        OffsetDateTime[] readings = inStore(store -> {
            OffsetDateTime first = flows(store).databaseNow();
            OffsetDateTime between = otherSessionsTime();
            return new OffsetDateTime[] {first, between, flows(store).databaseNow()};
        });
        // Each statement is a round trip later than the one before it: microseconds, PostgreSQL's resolution.
        assertTrue(readings[0].isBefore(readings[1]) && readings[1].isBefore(readings[2]),
                "two readings in one transaction, another session's between them: " + Arrays.toString(readings));
        // The test's JVM and the database share this machine's clock.
        assertTrue(Duration.between(readings[2], OffsetDateTime.now()).abs().toMillis() < 5_000, readings[2].toString());
    }

    /** The database's clock as another session reads it, outside the transaction under test. */
    private OffsetDateTime otherSessionsTime() {
        try (Connection c = db.getConnection(); var statement = c.createStatement();
             var result = statement.executeQuery("SELECT clock_timestamp()")) {
            result.next();
            return result.getObject(1, OffsetDateTime.class);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void flowAndCallWindowsAreReadUnderTheirRowAndSavedAndTheGaugesCount() throws Exception {
        submit("o-1", T0);
        submit("o-2", T0);
        submit("o-3", T0);
        try (Connection c = db.getConnection()) {
            update(c, "UPDATE step_state SET running_operation = 'charge-payment' WHERE order_id IN ('o-1', 'o-2') AND seq = 1");
            update(c, "UPDATE order_state SET throttled_on = 'charge-payment', not_before = ?1 WHERE order_id = 'o-3'",
                    T0.plusMinutes(1));
        }

        assertEquals(new FlowWindows.FlowWindow(null, 0, 2), inStore(store -> flows(store).lockFlowWindow("charge-payment")),
                "a new row: no window yet");
        inStore(store -> {
            flows(store).saveFlowWindow("charge-payment", T0, 3);
            return null;
        });
        assertEquals(new FlowWindows.FlowWindow(T0, 3, 2), inStore(store -> flows(store).lockFlowWindow("charge-payment")));

        assertEquals(new FlowWindows.FlowWindow(null, 0, 0), inStore(store -> flows(store).lockCallWindow("charge-payment")),
                "the calls' window is the row's other pair");
        inStore(store -> {
            flows(store).saveCallWindow("charge-payment", T0.plusSeconds(1), 7);
            return null;
        });
        assertEquals(new FlowWindows.FlowWindow(T0.plusSeconds(1), 7, 0), inStore(store -> flows(store).lockCallWindow("charge-payment")));
        assertEquals(new FlowWindows.FlowWindow(T0, 3, 2), inStore(store -> flows(store).lockFlowWindow("charge-payment")),
                "and leaves the admissions' window alone");

        assertEquals(2L, (long) inStore(store -> flows(store).runningOf("charge-payment")));
        assertEquals(1L, (long) inStore(store -> store.throttledCount("charge-payment")));
        assertEquals(0L, (long) inStore(store -> store.throttledCount("reserve-inventory")));
        assertEquals(List.of("o-3"), inStore(store -> store.releaseThrottled("charge-payment", 5)));
        assertEquals(List.of(), inStore(store -> store.releaseThrottled("charge-payment", 5)), "released already");
    }

    /** Orders stored before versions (V12) are pinned to the version deployed now, unfinished ones only. */
    @Test
    void pinUnversionedPinsTheUnfinishedOrdersOfTheWorkflowThatNamedNoVersion() throws Exception {
        submit("o-1", T0);
        submit("o-2", T0);
        submit("o-3", T0);
        try (Connection c = db.getConnection()) {
            update(c, "UPDATE order_state SET workflow_version = NULL WHERE order_id IN ('o-1', 'o-2')");
            update(c, "UPDATE order_state SET process_state = 'Processed' WHERE order_id = 'o-2'");
        }

        assertEquals(1, (int) inStore(store -> store.pinUnversioned(ORDER.name(), ORDER.version())));
        assertEquals(0, (int) inStore(store -> store.pinUnversioned("other-workflow", ORDER.version())));

        try (Connection c = db.getConnection()) {
            assertEquals(List.of("o-1:" + ORDER.version() + ":2", "o-2:null:1", "o-3:" + ORDER.version() + ":1"),
                    strings(c, "SELECT order_id || ':' || coalesce(workflow_version, 'null') || ':' || version"
                            + " FROM order_state ORDER BY order_id"), "o-1 pinned (and its version moved), o-2 finished");
        }
    }

    // --- the product's way in: a store over an entity manager, in a transaction as the container gives it

    /** The flow windows and the contents reader over the store's entity manager. */
    private static FlowWindows flows(StateStore store) {
        FlowWindows flows = new FlowWindows();
        flows.em = store.em;
        return flows;
    }

    private static Sweeps sweeps(StateStore store) {
        Sweeps sweeps = new Sweeps();
        sweeps.em = store.em;
        return sweeps;
    }

    private static OrderContents contents(StateStore store) {
        OrderContents contents = new OrderContents();
        contents.em = store.em;
        return contents;
    }

    private StateStore store(EntityManager em) {
        StateStore store = new StateStore();
        store.em = em;
        store.transitions = transitions;
        return store;
    }

    @Test
    void whatARecordWaitsForAndItsHistoryLengthAreItsOwnColumnsAcrossTransactions() throws Exception {
        submit("o-1", T0, T0.plusSeconds(60));
        assertEquals(List.of("10:01:00|-|-|1"), waitingColumns("o-1"), "a delayed start");
        assertEquals(T0.plusSeconds(60).toInstant(), inStore(store -> store.read("o-1")).orElseThrow().notBefore().toInstant());
        try (Connection c = db.getConnection()) {
            update(c, "INSERT INTO dispatch_pause (scope, paused_by, reason, paused_at) VALUES ('reserve-inventory', 'ops',"
                    + " 'maintenance', ?1)", T0);
        }

        claim(List.of("o-1"), T0.plusSeconds(61));
        assertEquals(List.of("-|reserve-inventory|-|2"), waitingColumns("o-1"), "parked: no instant, and said once");
        try (Connection c = db.getConnection()) {
            update(c, "DELETE FROM dispatch_pause");
            update(c, "UPDATE order_state SET paused_on = NULL, throttled_on = 'reserve-inventory' WHERE order_id = 'o-1'");
        }
        OrderState limited = inStore(store -> store.read("o-1")).orElseThrow();
        assertNull(limited.pausedOn());
        assertEquals("reserve-inventory", limited.throttledOn());

        assertEquals(1, claim(List.of("o-1"), T0.plusSeconds(62)).size());
        assertEquals(List.of("-|-|-|4"), waitingColumns("o-1"), "running: it waits for nothing");
        assertEquals(List.of(1, 2, 3, 4), inStore(store -> store.history("o-1")).stream().map(HistoryEntry::seq).toList(),
                "gapless: each transaction goes on from the length stored with the record");
    }

    /** What the record waits for and how long its history is, as its columns hold them: not_before (UTC time), paused_on, throttled_on, history_count. */
    private List<String> waitingColumns(String orderId) throws SQLException {
        try (Connection c = db.getConnection()) {
            return strings(c, "SELECT coalesce(to_char(not_before AT TIME ZONE 'UTC', 'HH24:MI:SS'), '-') || '|'"
                    + " || coalesce(paused_on, '-') || '|' || coalesce(throttled_on, '-') || '|' || history_count"
                    + " FROM order_state WHERE order_id = ?1", orderId);
        }
    }

    private <T> T inStore(Function<StateStore, T> work) throws Exception {
        return jpa.inTransaction(em -> work.apply(store(em)));
    }

    private void submit(String orderId, OffsetDateTime at, OrderLine... lines) throws Exception {
        submit(orderId, at, null, lines);
    }

    private void submit(String orderId, OffsetDateTime at, OffsetDateTime notBefore, OrderLine... lines) throws Exception {
        inStore(store -> {
            store.create(new CustomerOrder(orderId, "customer-" + orderId, List.of(lines), at),
                    OrderState.pending(orderId, ORDER, at, SUBMISSION, notBefore));
            return null;
        });
    }

    /** As the scheduler claims: lock what is claimable, claim each under the pauses read with it, store the history. */
    private List<Attempt> claim(List<String> orderIds, OffsetDateTime now) throws Exception {
        return inStore(store -> {
            StateStore.Locked locked = store.lockClaimable(orderIds, now);
            List<Attempt> attempts = new ArrayList<>();
            for (OrderState state : locked.states()) {
                attempts.addAll(state.claim("node-a", now, ORDER, SCHEDULER, "claimed", locked.paused()));
                store.saveHistory(state);
            }
            return attempts;
        });
    }

    private List<String> heartbeats(String orderId) throws SQLException {
        try (Connection c = db.getConnection()) {
            update(c, "SET TIME ZONE 'UTC'");
            return strings(c, "SELECT to_char(s.heartbeat_by AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') || '|'"
                    + " || to_char(o.heartbeat_by AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
                    + " FROM step_state s JOIN order_state o ON o.order_id = s.order_id WHERE s.order_id = ?1 AND s.seq = 0",
                    orderId);
        }
    }

    private static List<String> ids(List<OrderState> states) {
        return states.stream().map(OrderState::orderId).sorted().toList();
    }

    private static List<String> lines(List<OrderLine> lines) {
        return lines.stream().map(line -> line.sku() + " x" + line.quantity()).toList();
    }

    private static List<String> sorted(List<String> ids) {
        return ids.stream().sorted().toList();
    }
}
