package io.overseer.submission;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The submission-key store on PostgreSQL with the application's migrations, through
 * {@link SubmissionKeys}' own statements: eight retries of one submission racing each other create one
 * order, and the other seven answer with it — what the class comment promises of INSERT … ON CONFLICT;
 * and {@link SubmissionKeys} itself through EclipseLink (its binding, its reading of the winner's row).
 */
class SubmissionKeysDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 23, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final String SCOPE = "http:alice";
    private static final String FINGERPRINT = "f".repeat(64);
    private static final int RETRIES = 8;

    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);
    private DataSource db;

    /** How one submission's claim of the key ended. */
    private enum Outcome { CREATED, ROLLED_BACK, ANSWERED_WITH_EARLIER }

    private record Claim(String orderId, Outcome outcome, String answeredWith) {
    }

    @BeforeEach
    void emptyStore() throws SQLException {
        db = DB.getTestDatabase();
        try (Connection c = db.getConnection()) {
            update(c, "TRUNCATE customer_order CASCADE");
        }
    }

    @Test
    void eightConcurrentClaimsOfOneKeyCreateOneOrderAndTheOthersSeeIt() throws Exception {
        List<Claim> claims = race("key-1", true);

        Map<Outcome, List<Claim>> by = byOutcome(claims);
        assertEquals(1, by.get(Outcome.CREATED).size(), claims.toString());
        String winner = by.get(Outcome.CREATED).get(0).orderId();
        assertEquals(List.of(winner), answers(by.get(Outcome.ANSWERED_WITH_EARLIER)), claims.toString());
        assertEquals(RETRIES - 1, by.get(Outcome.ANSWERED_WITH_EARLIER).size());
        assertEquals(List.of(winner + " " + FINGERPRINT), stored("key-1"));
    }

    @Test
    void whenTheFirstClaimRollsBackOneOfTheWaitingOnesCreatesTheOrder() throws Exception {
        List<Claim> claims = race("key-2", false);

        Map<Outcome, List<Claim>> by = byOutcome(claims);
        assertEquals(1, by.get(Outcome.ROLLED_BACK).size(), claims.toString());
        assertEquals(1, by.get(Outcome.CREATED).size(), claims.toString());
        String winner = by.get(Outcome.CREATED).get(0).orderId();
        assertEquals(List.of(winner), answers(by.get(Outcome.ANSWERED_WITH_EARLIER)), claims.toString());
        assertEquals(RETRIES - 2, by.get(Outcome.ANSWERED_WITH_EARLIER).size());
        assertEquals(List.of(winner + " " + FINGERPRINT), stored("key-2"));
    }

    @Test
    void theKeyStoreItselfTakesAKeyOnceAndAnswersLaterClaimsWithTheOrderAndFingerprintThatTookIt() throws Exception {
        SubmissionKey key = new SubmissionKey(SCOPE, "key-jpa", FINGERPRINT);
        assertEquals(Optional.empty(), claimThroughStore(key, "order-jpa-1", true), "taken: the caller creates the order");
        assertEquals(Optional.of(new SubmissionKeys.Taken("order-jpa-1", FINGERPRINT)),
                claimThroughStore(key, "order-jpa-2", false), "a retry gets the first order");
        String otherRequest = "e".repeat(64);
        assertEquals(Optional.of(new SubmissionKeys.Taken("order-jpa-1", FINGERPRINT)),
                claimThroughStore(new SubmissionKey(SCOPE, "key-jpa", otherRequest), "order-jpa-3", false),
                "another request under the key: the stored fingerprint, for the caller to refuse");
        assertEquals(Optional.empty(), claimThroughStore(new SubmissionKey("jms:bob", "key-jpa", FINGERPRINT), "order-jpa-4", true),
                "scopes never share keys");
        assertEquals(List.of("order-jpa-1 " + FINGERPRINT), stored("key-jpa"));
    }

    @Test
    void aKeyTakenInATransactionThatRollsBackIsFreeAgain() throws Exception {
        SubmissionKey key = new SubmissionKey(SCOPE, "key-undone", FINGERPRINT);
        assertThrows(IllegalStateException.class, () -> jpa.inTransaction(em -> {
            assertEquals(Optional.empty(), keys(em).claim(key, "order-undone-1", NOW));
            throw new IllegalStateException("the order's write failed");
        }));
        assertEquals(Optional.empty(), claimThroughStore(key, "order-undone-2", true));
        assertEquals(List.of("order-undone-2 " + FINGERPRINT), stored("key-undone"));
    }

    @Test
    void theKeyStoresPurgeDeletesOldKeysABatchAtATime() throws Exception {
        try (Connection c = db.getConnection()) {
            for (int i = 0; i < 3; i++) {
                claimInOwnTransaction(c, "older-" + i, "order-older-" + i, NOW.minusHours(30));
            }
            claimInOwnTransaction(c, "newer", "order-newer", NOW.minusHours(1));
        }
        assertEquals(2, (int) jpa.inTransaction(em -> keys(em).purge(NOW.minusHours(25), 2)));
        assertEquals(1, (int) jpa.inTransaction(em -> keys(em).purge(NOW.minusHours(25), 2)));
        assertEquals(0, (int) jpa.inTransaction(em -> keys(em).purge(NOW.minusHours(25), 2)));
        assertEquals(List.of("order-newer " + FINGERPRINT), stored("newer"));
    }

    @Test
    void thePurgeForgetsOldKeysABatchAtATime() throws Exception {
        try (Connection c = db.getConnection()) {
            for (int i = 0; i < 5; i++) {
                claimInOwnTransaction(c, "old-" + i, "order-old-" + i, NOW.minusHours(26));
            }
            claimInOwnTransaction(c, "new", "order-new", NOW);

            assertEquals(2, update(c, SubmissionKeys.PURGE_SQL, NOW.minusHours(25), 2));
            assertEquals(2, update(c, SubmissionKeys.PURGE_SQL, NOW.minusHours(25), 2));
            assertEquals(1, update(c, SubmissionKeys.PURGE_SQL, NOW.minusHours(25), 2));
            assertEquals(0, update(c, SubmissionKeys.PURGE_SQL, NOW.minusHours(25), 2));
            assertEquals(List.of("new"), strings(c, "SELECT idem_key FROM submission_key"));
        }
    }

    /**
     * Eight submissions with one key, each in its own transaction as OrderSubmission runs it: claim the
     * key, and either write the order (the first) or read the earlier one's. The first claim holds its
     * transaction open until all the others wait on it, so every one of them meets the race; then it
     * commits or, if {@code firstCommits} is false, rolls back and the next one must take its place.
     */
    private List<Claim> race(String key, boolean firstCommits) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(RETRIES);
        CyclicBarrier start = new CyclicBarrier(RETRIES);
        AtomicBoolean firstDone = new AtomicBoolean();
        try {
            List<Future<Claim>> running = new ArrayList<>();
            for (int i = 1; i <= RETRIES; i++) {
                String orderId = "order-" + key + "-" + i;
                running.add(pool.submit(() -> {
                    try (Connection c = db.getConnection()) {
                        c.setAutoCommit(false);
                        start.await();
                        return submit(c, key, orderId, firstDone, firstCommits);
                    }
                }));
            }
            List<Claim> claims = new ArrayList<>();
            for (Future<Claim> claim : running) {
                claims.add(claim.get(30, TimeUnit.SECONDS));
            }
            return claims;
        } finally {
            pool.shutdownNow();
        }
    }

    private Claim submit(Connection c, String key, String orderId, AtomicBoolean firstDone, boolean firstCommits)
            throws Exception {
        if (update(c, SubmissionKeys.CLAIM_SQL, SCOPE, key, FINGERPRINT, orderId, NOW) == 1) {
            boolean first = firstDone.compareAndSet(false, true);
            // The rest of the race waits on this transaction: the seven others, or the six left after a rollback.
            MigratedDatabase.awaitLockWaiters(db, first ? RETRIES - 1 : RETRIES - 2);
            if (first && !firstCommits) {
                c.rollback();
                return new Claim(orderId, Outcome.ROLLED_BACK, null);
            }
            writeOrder(c, orderId);
            c.commit();
            return new Claim(orderId, Outcome.CREATED, orderId);
        }
        List<String> earlier = strings(c, SubmissionKeys.FIND_SQL, SCOPE, key);
        c.commit();
        return new Claim(orderId, Outcome.ANSWERED_WITH_EARLIER, earlier.isEmpty() ? null : earlier.get(0));
    }

    /** As OrderSubmission does: the key, then (if taken) the order, in one transaction. */
    private Optional<SubmissionKeys.Taken> claimThroughStore(SubmissionKey key, String orderId, boolean writeOrder)
            throws Exception {
        return jpa.inTransaction(em -> {
            Optional<SubmissionKeys.Taken> taken = keys(em).claim(key, orderId, NOW);
            if (writeOrder) {
                em.createNativeQuery("INSERT INTO customer_order (order_id, customer_id, created_at) VALUES (?1, 'c', ?2)")
                        .setParameter(1, orderId).setParameter(2, NOW).executeUpdate();
            }
            return taken;
        });
    }

    private static SubmissionKeys keys(EntityManager em) {
        SubmissionKeys keys = new SubmissionKeys();
        keys.em = em;
        return keys;
    }

    private void claimInOwnTransaction(Connection c, String key, String orderId, OffsetDateTime at) throws SQLException {
        c.setAutoCommit(false);
        assertEquals(1, update(c, SubmissionKeys.CLAIM_SQL, SCOPE, key, FINGERPRINT, orderId, at));
        writeOrder(c, orderId);
        c.commit();
        c.setAutoCommit(true);
    }

    /** The order a key names (the foreign key is checked at commit); test data, not the product's SQL. */
    private static void writeOrder(Connection c, String orderId) throws SQLException {
        update(c, "INSERT INTO customer_order (order_id, customer_id, created_at) VALUES (?1, 'c', ?2)", orderId, NOW);
    }

    private List<String> stored(String key) throws SQLException {
        try (Connection c = db.getConnection()) {
            return strings(c, "SELECT order_id || ' ' || fingerprint FROM submission_key WHERE scope = ?1 AND idem_key = ?2",
                    SCOPE, key);
        }
    }

    private static Map<Outcome, List<Claim>> byOutcome(List<Claim> claims) {
        Map<Outcome, List<Claim>> by = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            by.put(outcome, claims.stream().filter(claim -> claim.outcome() == outcome).toList());
        }
        return by;
    }

    /** The distinct order ids that claims answered with. */
    private static List<String> answers(List<Claim> claims) {
        return claims.stream().map(Claim::answeredWith).distinct().toList();
    }
}
