package io.overseer.submission;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
 * A batch's keys on PostgreSQL with the application's migrations, through {@link SubmissionKeys#claimAll}
 * (EclipseLink, the product's two statements): the new keys taken in one statement, the earlier ones read
 * back with the order and fingerprint that took them; and batches racing over overlapping keys, in
 * different orders, each in its own transaction as OrderSubmission runs it: every key makes one order, every
 * batch that met a taken key answers with that order, and none deadlocks.
 */
class SubmissionKeysBatchDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 29, 8, 0, 0, 0, ZoneOffset.UTC);
    private static final String SCOPE = "http:alice";
    private static final String FINGERPRINT = "f".repeat(64);
    private static final int BATCHES = 8;
    private static final int SHARED_KEYS = 40;

    private DataSource db;

    @BeforeEach
    void emptyStore() throws SQLException {
        db = DB.getTestDatabase();
        try (Connection c = db.getConnection()) {
            update(c, "TRUNCATE customer_order CASCADE");
        }
    }

    @Test
    void newKeysAreTakenInOneStatementAndTakenOnesComeBackWithTheirOrderAndFingerprint() throws Exception {
        Map<String, SubmissionKeys.Taken> first = wanted("first", "k-1", "k-2");
        assertEquals(Map.of(), claim(SCOPE, first), "all new: nothing taken before");

        String other = "e".repeat(64);
        Map<String, SubmissionKeys.Taken> second = new LinkedHashMap<>();
        second.put("k-2", new SubmissionKeys.Taken("second-k-2", other));
        second.put("k-3", new SubmissionKeys.Taken("second-k-3", FINGERPRINT));
        second.put("k-1", new SubmissionKeys.Taken("second-k-1", FINGERPRINT));
        Map<String, SubmissionKeys.Taken> earlier = claim(SCOPE, second);

        assertEquals(Map.of("k-1", new SubmissionKeys.Taken("first-k-1", FINGERPRINT),
                "k-2", new SubmissionKeys.Taken("first-k-2", FINGERPRINT)), earlier,
                "the earlier orders with their own fingerprints, for the caller to replay or refuse");
        assertEquals(List.of("k-1 first-k-1", "k-2 first-k-2", "k-3 second-k-3"), stored());
        assertEquals(Map.of(), claim("jms:bob", wanted("bob", "k-1")), "scopes never share keys");
    }

    @Test
    void keysOfABatchThatRollsBackAreFreeAgain() throws Exception {
        try {
            jpa.inTransaction(em -> {
                keys(em).claimAll(SCOPE, wanted("undone", "u-1", "u-2"), NOW);
                throw new IllegalStateException("an order's write failed");
            });
        } catch (IllegalStateException expected) {
            // the batch's transaction rolled back, its keys with it
        }
        assertEquals(Map.of(), claim(SCOPE, wanted("again", "u-1", "u-2")));
        assertEquals(List.of("u-1 again-u-1", "u-2 again-u-2"), stored());
    }

    @Test
    void batchesRacingOverOverlappingKeysMakeOneOrderPerKeyAndAllSeeIt() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(BATCHES);
        CyclicBarrier start = new CyclicBarrier(BATCHES);
        try {
            List<Future<Map<String, String>>> running = new ArrayList<>();
            for (int b = 0; b < BATCHES; b++) {
                int batch = b;
                running.add(pool.submit(() -> {
                    Map<String, SubmissionKeys.Taken> wanted = racingBatch(batch);
                    start.await();
                    return answers(wanted, claim(SCOPE, wanted));
                }));
            }
            Map<String, String> winners = new HashMap<>();
            for (Future<Map<String, String>> batch : running) {
                for (Map.Entry<String, String> answer : batch.get(60, TimeUnit.SECONDS).entrySet()) {
                    String before = winners.putIfAbsent(answer.getKey(), answer.getValue());
                    assertTrue(before == null || before.equals(answer.getValue()),
                            "two orders answered for " + answer.getKey() + ": " + before + ", " + answer.getValue());
                }
            }
            List<String> expected = new ArrayList<>();
            winners.forEach((key, order) -> expected.add(key + " " + order));
            Collections.sort(expected);
            assertEquals(SHARED_KEYS + BATCHES, winners.size());
            assertEquals(expected, stored(), "each key stored once, naming the order every batch answered with");
            try (Connection c = db.getConnection()) {
                assertEquals(List.of(Integer.toString(SHARED_KEYS + BATCHES)),
                        strings(c, "SELECT count(*)::text FROM customer_order"), "one order per key, no more");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The shared keys in an order of the batch's own, and one key of its own. */
    private static Map<String, SubmissionKeys.Taken> racingBatch(int batch) {
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < SHARED_KEYS; k++) {
            keys.add("shared-" + k);
        }
        Collections.shuffle(keys, new Random(batch));
        keys.add("own-" + batch);
        Map<String, SubmissionKeys.Taken> wanted = new LinkedHashMap<>();
        keys.forEach(key -> wanted.put(key, new SubmissionKeys.Taken("b" + batch + "-" + key, FINGERPRINT)));
        return wanted;
    }

    /** Per key, the order the batch answers with: its own if it took the key, else the earlier one. */
    private static Map<String, String> answers(Map<String, SubmissionKeys.Taken> wanted,
                                               Map<String, SubmissionKeys.Taken> earlier) {
        Map<String, String> answers = new HashMap<>();
        wanted.forEach((key, mine) -> answers.put(key, earlier.containsKey(key) ? earlier.get(key).orderId() : mine.orderId()));
        return answers;
    }

    /** As OrderSubmission does: the keys in one statement, then the orders of the keys taken now, one transaction. */
    private static Map<String, SubmissionKeys.Taken> claim(String scope, Map<String, SubmissionKeys.Taken> wanted)
            throws Exception {
        return jpa.inTransaction(em -> {
            Map<String, SubmissionKeys.Taken> earlier = keys(em).claimAll(scope, wanted, NOW);
            wanted.forEach((key, mine) -> {
                if (!earlier.containsKey(key)) {
                    em.createNativeQuery("INSERT INTO customer_order (order_id, customer_id, created_at)"
                            + " VALUES (?1, 'c', ?2)").setParameter(1, mine.orderId()).setParameter(2, NOW).executeUpdate();
                }
            });
            return earlier;
        });
    }

    private static Map<String, SubmissionKeys.Taken> wanted(String prefix, String... keys) {
        Map<String, SubmissionKeys.Taken> wanted = new LinkedHashMap<>();
        for (String key : keys) {
            wanted.put(key, new SubmissionKeys.Taken(prefix + "-" + key, FINGERPRINT));
        }
        return wanted;
    }

    private static SubmissionKeys keys(EntityManager em) {
        SubmissionKeys keys = new SubmissionKeys();
        keys.em = em;
        return keys;
    }

    private List<String> stored() throws SQLException {
        try (Connection c = db.getConnection()) {
            return strings(c, "SELECT idem_key || ' ' || order_id FROM submission_key WHERE scope = ?1 ORDER BY idem_key",
                    SCOPE);
        }
    }
}
