package io.overseer.statestore;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.MigratedDatabase;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scheduler's claim on PostgreSQL with the application's migrations, through the state store's own
 * statements ({@link Sweeps#STRANDED_SQL}, {@link StateStore#lockClaimableSql}): schedulers claiming
 * at once from the same claimable records claim each exactly once, whether they find them by polling or
 * all get every record's dispatch hint.
 */
class ClaimDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 23, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final int ORDERS = 400;
    private static final int SCHEDULERS = 8;
    private static final int BATCH = 25;
    /**
     * What {@link OrderState#claim} changes on a Pending record, as EclipseLink writes it. The statement is
     * the test's; what makes claims exclusive — the lock and the re-check — is the state store's.
     */
    private static final String CLAIM_WRITE = "UPDATE order_state SET process_state = 'Processing', locked_by = ?1,"
            + " epoch = epoch + 1, complete_by = ?2, updated_at = ?3, version = version + 1 WHERE order_id = ?4";

    private DataSource db;
    private final Map<String, Queue<String>> claims = new ConcurrentHashMap<>();

    @BeforeEach
    void emptyStateStore() throws SQLException {
        db = DB.getTestDatabase();
        try (Connection c = db.getConnection()) {
            update(c, "TRUNCATE customer_order CASCADE");
        }
    }

    @Test
    void schedulersPollingAtOnceClaimEveryStrandedOrderOnce() throws Exception {
        List<String> orders = pendingOrders(ORDERS);

        race(scheduler -> {
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                while (true) {
                    // As OrderPollers' stranded poll: read without a lock, then claim by id.
                    List<String> stranded = strings(c, Sweeps.STRANDED_SQL, NOW, NOW.minusSeconds(10), BATCH);
                    if (stranded.isEmpty()) {
                        c.commit();
                        return;
                    }
                    claim(c, scheduler, stranded);
                }
            }
        });

        assertClaimedOnceEach(orders);
    }

    @Test
    void schedulersGivenEveryHintClaimEveryOrderOnce() throws Exception {
        List<String> orders = pendingOrders(ORDERS);

        race(scheduler -> {
            // Every scheduler hears of every order (duplicated hints), in an order of its own, a batch at a time.
            List<String> hints = new ArrayList<>(orders);
            Collections.shuffle(hints, new Random(scheduler.hashCode()));
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                for (int i = 0; i < hints.size(); i += BATCH) {
                    claim(c, scheduler, hints.subList(i, Math.min(i + BATCH, hints.size())));
                }
            }
        });

        assertClaimedOnceEach(orders);
    }

    @Test
    void aClaimSkipsTheRecordsAnotherTransactionHoldsWithoutWaiting() throws Exception {
        List<String> orders = pendingOrders(3);
        try (Connection first = db.getConnection(); Connection second = db.getConnection()) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            update(second, "SET lock_timeout = '5s'"); // a claim that waited would fail here, not hang
            assertEquals(orders.subList(0, 1), lockClaimable(first, orders.subList(0, 1)));

            assertEquals(orders.subList(1, 3), lockClaimable(second, orders), "the held record skipped, not waited for");
            first.rollback();
            second.rollback();
        }
    }

    @Test
    void onlyDueUnclaimedRecordsAreClaimable() throws Exception {
        List<String> orders = pendingOrders(6);
        try (Connection c = db.getConnection()) {
            update(c, "UPDATE order_state SET not_before = ?1 WHERE order_id = ?2", NOW.plusSeconds(1), orders.get(1));
            // due for 20 s: claimable, and stranded too (one due only now is the due-order poller's: StateStoreDbTest)
            update(c, "UPDATE order_state SET not_before = ?1 WHERE order_id = ?2", NOW.minusSeconds(20), orders.get(2));
            update(c, "UPDATE order_state SET process_state = 'Compensating' WHERE order_id = ?1", orders.get(3));
            update(c, "UPDATE order_state SET process_state = 'Compensating', locked_by = 'x' WHERE order_id = ?1",
                    orders.get(4));
            update(c, "UPDATE order_state SET process_state = 'Processing', locked_by = 'x' WHERE order_id = ?1",
                    orders.get(5));

            assertEquals(List.of(orders.get(0), orders.get(2), orders.get(3)), lockClaimable(c, orders),
                    "Pending and due, or Compensating with nobody on it");
            assertEquals(List.of(orders.get(0), orders.get(2), orders.get(3)),
                    strings(c, Sweeps.STRANDED_SQL, NOW, NOW.minusSeconds(10), 100));
            assertEquals(List.of(), strings(c, Sweeps.STRANDED_SQL, NOW, NOW.minusMinutes(10), 100),
                    "none untouched for ten minutes");
        }
    }

    @Test
    void theSweepFindsClaimedRecordsPastTheirCompleteBySoonestFirst() throws Exception {
        List<String> orders = pendingOrders(4);
        try (Connection c = db.getConnection()) {
            String expire = "UPDATE order_state SET process_state = 'Processing', locked_by = 'x', complete_by = ?1"
                    + " WHERE order_id = ?2";
            update(c, expire, NOW.minusSeconds(1), orders.get(0));
            update(c, expire, NOW.minusSeconds(5), orders.get(1));
            update(c, expire, NOW.plusSeconds(1), orders.get(2));

            assertEquals(List.of(orders.get(1), orders.get(0)), strings(c, Sweeps.EXPIRED_SQL, NOW, 200));
            assertEquals(List.of(orders.get(1)), strings(c, Sweeps.EXPIRED_SQL, NOW, 1));
        }
    }

    /** One scheduler's part in a race, run on a thread of its own. */
    @FunctionalInterface
    private interface Claiming {
        void run(String scheduler) throws Exception;
    }

    private void race(Claiming claiming) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(SCHEDULERS);
        try {
            List<Future<Object>> running = new ArrayList<>();
            CyclicBarrier start = new CyclicBarrier(SCHEDULERS);
            for (int i = 1; i <= SCHEDULERS; i++) {
                String name = "scheduler-" + i;
                running.add(pool.submit(() -> {
                    start.await();
                    claiming.run(name);
                    return null;
                }));
            }
            for (Future<Object> each : running) {
                each.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** As Scheduler.claim: lock what is claimable of the ids, claim each, commit. */
    private void claim(Connection c, String scheduler, List<String> ids) throws SQLException {
        List<String> locked = lockClaimable(c, ids);
        for (String orderId : locked) {
            update(c, CLAIM_WRITE, scheduler, NOW.plusMinutes(1), NOW, orderId);
        }
        c.commit();
        locked.forEach(orderId -> claims.computeIfAbsent(orderId, id -> new ConcurrentLinkedQueue<>()).add(scheduler));
    }

    private static List<String> lockClaimable(Connection c, List<String> ids) throws SQLException {
        List<Object> parameters = new ArrayList<>();
        parameters.add(NOW);
        parameters.addAll(ids);
        return strings(c, StateStore.lockClaimableSql(ids.size()), parameters.toArray());
    }

    private void assertClaimedOnceEach(List<String> orders) throws SQLException {
        List<String> twice = claims.entrySet().stream().filter(claim -> claim.getValue().size() > 1)
                .map(claim -> claim.getKey() + " by " + claim.getValue()).sorted().toList();
        assertEquals(List.of(), twice.subList(0, Math.min(5, twice.size())), twice.size() + " orders claimed more than once");
        assertEquals(orders.size(), claims.size(), "every order claimed");
        assertTrue(claims.values().stream().flatMap(Queue::stream).distinct().count() > 1, "more than one scheduler claimed");
        try (Connection c = db.getConnection()) {
            assertEquals(List.of("Processing:1:" + orders.size()), strings(c, "SELECT process_state || ':' || epoch"
                    + " || ':' || count(*) FROM order_state GROUP BY process_state, epoch"), "one claim each, in the store");
            for (String row : strings(c, "SELECT order_id || ' ' || locked_by FROM order_state")) {
                String[] orderAndOwner = row.split(" ");
                assertEquals(List.of(orderAndOwner[1]), List.copyOf(claims.get(orderAndOwner[0])), row);
            }
        }
    }

    /**
     * Pending records (test data, not the product's SQL) created a minute ago, a millisecond apart, so that
     * their ids and their updated_at sort alike.
     */
    private List<String> pendingOrders(int count) throws SQLException {
        try (Connection c = db.getConnection()) {
            update(c, "INSERT INTO customer_order (order_id, customer_id, created_at)"
                    + " SELECT 'order-' || lpad(n::text, 5, '0'), 'c', ?1::timestamptz + n * interval '1 millisecond'"
                    + " FROM generate_series(1, ?2) n", NOW.minusMinutes(1), count);
            update(c, "INSERT INTO order_state (order_id, workflow, process_state, created_at, updated_at)"
                    + " SELECT order_id, 'default', 'Pending', created_at, created_at FROM customer_order");
            return strings(c, "SELECT order_id FROM order_state ORDER BY order_id");
        }
    }
}
