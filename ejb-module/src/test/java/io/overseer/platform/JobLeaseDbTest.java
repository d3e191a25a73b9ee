package io.overseer.platform;

import static io.overseer.platform.NativeSql.column;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lease on PostgreSQL with the application's migrations, through {@link JobLease}'s own statements:
 * one tenure at a time, each with its epoch, and the writes of a deposed holder refused. "Writes" here
 * are rows of a table of this test's own, made as the product makes its: {@link JobLease#FENCE_SQL}, then
 * the write, in one transaction.
 */
class JobLeaseDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 23, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final AtomicInteger LEASES = new AtomicInteger();

    private DataSource db;
    private String job;

    @BeforeAll
    static void writesTable() throws SQLException {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "CREATE TABLE lease_write (seq BIGSERIAL PRIMARY KEY, job VARCHAR(64) NOT NULL,"
                    + " holder VARCHAR(128) NOT NULL, epoch BIGINT NOT NULL, note VARCHAR(200) NOT NULL)");
        }
    }

    /** A lease row of its own per test, as the migrations create the product's. */
    @BeforeEach
    void newLease() throws SQLException {
        db = DB.getTestDatabase();
        job = "test-lease-" + LEASES.incrementAndGet();
        try (Connection c = db.getConnection()) {
            update(c, "INSERT INTO job_lease (name, holder, expires_at) VALUES (?1, NULL, TIMESTAMPTZ '1970-01-01 00:00:00+00')", job);
        }
    }

    @Test
    void theMigratedLeasesStartWithNoTenureAndTheFirstTakeIsEpochOne() throws SQLException {
        try (Connection c = db.getConnection()) {
            assertEquals(List.of("notification-relay:0", "submission-key-purge:0", "supervisor:0"),
                    NativeSql.strings(c, "SELECT name || ':' || epoch FROM job_lease WHERE holder IS NULL"
                            + " AND name NOT LIKE 'test-%' ORDER BY name"));
            assertEquals(Optional.of(1L), take(c, "supervisor", "a", T0, TTL));
        }
    }

    @Test
    void aLiveLeaseIsRenewedInTheSameTenureByItsHolderAndRefusedToAnyoneElse() throws SQLException {
        assertEquals(Optional.of(1L), acquire("a", T0));
        assertEquals(Optional.empty(), acquire("b", T0.plusSeconds(5)));
        assertEquals(Optional.of(1L), acquire("a", T0.plusSeconds(9)));
        assertEquals(Optional.empty(), acquire("b", T0.plusSeconds(15)), "renewed until T0+19s");
        assertEquals(Optional.of(2L), acquire("b", T0.plusSeconds(20)), "lapsed: b's tenure");
    }

    @Test
    void aDeposedHolderWritesNothing() throws SQLException {
        long first = acquire("a", T0).orElseThrow();
        // a is paused past its expiry (a long GC, SIGSTOP), and b takes the lease over.
        long second = acquire("b", T0.plus(TTL).plusSeconds(1)).orElseThrow();
        assertEquals(first + 1, second);

        // a wakes and carries on with the tenure it had; whatever time it read before the pause counts for nothing.
        assertFalse(fencedWrite("a", first, "a deposed holder's write"));
        assertEquals(Optional.empty(), acquire("a", T0.plusSeconds(5)), "a's stale clock takes nothing back");
        assertTrue(fencedWrite("b", second, "the holder's write"));
        assertEquals(List.of("b@" + second + ": the holder's write"), writes());
    }

    @Test
    void aHolderTakingItsLapsedLeaseAgainStartsANewTenure() throws SQLException {
        long first = acquire("a", T0).orElseThrow();
        long again = acquire("a", T0.plus(TTL).plusSeconds(1)).orElseThrow();

        // Between the two, anyone could have held it: what a wrote in the old tenure must not carry on.
        assertEquals(first + 1, again);
        assertFalse(fencedWrite("a", first, "the old tenure's write"));
        assertTrue(fencedWrite("a", again, "the new tenure's write"));
    }

    @Test
    void aTakeOverWaitsForTheWriteInFlightAndThenFencesTheOldHolderOut() throws Exception {
        long first = acquire("a", T0).orElseThrow();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Connection writer = db.getConnection()) {
            writer.setAutoCommit(false);
            assertEquals(List.of(first), column(writer, JobLease.FENCE_SQL, job, "a", first));

            // Past a's expiry, but a's transaction holds the row: the take-over must wait for it.
            Future<Optional<Long>> takeOver = other.submit(() -> acquire("b", T0.plus(TTL).plusSeconds(1)));
            MigratedDatabase.awaitLockWaiters(db, 1);
            assertFalse(takeOver.isDone(), "the take-over waits for the write in flight");
            write(writer, "a", first, "begun before the take-over");
            writer.commit();

            assertEquals(Optional.of(first + 1), takeOver.get(10, TimeUnit.SECONDS));
        } finally {
            other.shutdownNow();
        }
        assertFalse(fencedWrite("a", first, "begun after the take-over"));
        assertEquals(List.of("a@" + first + ": begun before the take-over"), writes());
    }

    /**
     * Two holders race for one lease, 1,000 attempts each, on a shared clock that every attempt moves on by
     * 1-20 ms, with a lease of 15 ms: it is renewed sometimes and changes hands often. After each take the
     * holder writes under the fence, sometimes after a pause in which the other may take the lease over.
     */
    @Test
    void twoHoldersRacingHoldTheLeaseOneAtATimeAndNoTenureWritesAfterTheNext() throws Exception {
        Duration ttl = Duration.ofMillis(15);
        AtomicLong clock = new AtomicLong();
        Queue<Take> takes = new ConcurrentLinkedQueue<>();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService holders = Executors.newFixedThreadPool(2);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (String holder : List.of("a", "b")) {
                Callable<Void> race = () -> {
                    Random random = new Random(holder.hashCode());
                    try (Connection c = db.getConnection()) {
                        for (int i = 0; i < 1000; i++) {
                            OffsetDateTime now = T0.plus(clock.addAndGet(1 + random.nextInt(20)), ChronoUnit.MILLIS);
                            Optional<Long> epoch = acquire(c, holder, now, ttl);
                            if (epoch.isPresent()) {
                                takes.add(new Take(holder, epoch.get(), now, now.plus(ttl)));
                                if (random.nextInt(4) == 0) {
                                    Thread.sleep(1);
                                }
                                if (!fencedWrite(c, holder, epoch.get(), "attempt " + i)) {
                                    refused.incrementAndGet();
                                }
                            }
                        }
                    }
                    return null;
                };
                done.add(holders.submit(race));
            }
            for (Future<Void> holder : done) {
                holder.get(60, TimeUnit.SECONDS);
            }
        } finally {
            holders.shutdownNow();
        }

        Map<Long, List<Take>> tenures = new TreeMap<>();
        takes.forEach(take -> tenures.computeIfAbsent(take.epoch(), e -> new ArrayList<>()).add(take));
        String summary = takes.size() + " takes, " + tenures.size() + " tenures, " + refused + " writes refused";
        assertTrue(tenures.size() > 1, "the lease changed hands: " + summary);
        Take previousEnd = null;
        long expected = tenures.keySet().iterator().next();
        for (Map.Entry<Long, List<Take>> tenure : tenures.entrySet()) {
            assertEquals(expected++, tenure.getKey(), "epochs without a gap: " + summary);
            List<Take> taken = tenure.getValue();
            assertEquals(1, taken.stream().map(Take::holder).distinct().count(), "one holder per tenure: " + taken);
            Take start = taken.stream().min(Comparator.comparing(Take::now)).orElseThrow();
            if (previousEnd != null) {
                assertTrue(start.now().isAfter(previousEnd.expires()),
                        "tenure " + tenure.getKey() + " began at " + start + ", before the previous one ended: " + previousEnd);
            }
            previousEnd = taken.stream().max(Comparator.comparing(Take::expires)).orElseThrow();
        }
        List<Long> writtenEpochs;
        try (Connection c = db.getConnection()) {
            writtenEpochs = column(c, "SELECT epoch FROM lease_write WHERE job = ?1 ORDER BY seq", job).stream()
                    .map(Long.class::cast).toList();
        }
        for (int i = 1; i < writtenEpochs.size(); i++) {
            assertTrue(writtenEpochs.get(i - 1) <= writtenEpochs.get(i), "write " + i + " of tenure " + writtenEpochs.get(i)
                    + " after one of tenure " + writtenEpochs.get(i - 1) + ": a tenure wrote after the next one had begun");
        }
    }

    /** One successful {@link JobLease#ACQUIRE_SQL}: who, which tenure, from when until when. */
    private record Take(String holder, long epoch, OffsetDateTime now, OffsetDateTime expires) {
    }

    private Optional<Long> acquire(String holder, OffsetDateTime now) throws SQLException {
        try (Connection c = db.getConnection()) {
            return acquire(c, holder, now, TTL);
        }
    }

    private Optional<Long> acquire(Connection c, String holder, OffsetDateTime now, Duration ttl) throws SQLException {
        return take(c, job, holder, now, ttl);
    }

    /** As {@link JobLease#tryAcquire} binds it; the tenure's epoch, if taken. */
    private static Optional<Long> take(Connection c, String lease, String holder, OffsetDateTime now, Duration ttl)
            throws SQLException {
        return column(c, JobLease.ACQUIRE_SQL, holder, now.plus(ttl), lease, now).stream().findFirst().map(Long.class::cast);
    }

    private boolean fencedWrite(String holder, long epoch, String note) throws SQLException {
        try (Connection c = db.getConnection()) {
            return fencedWrite(c, holder, epoch, note);
        }
    }

    /** As a lease's users write: {@link JobLease#fence} and the write in one transaction, or nothing. */
    private boolean fencedWrite(Connection c, String holder, long epoch, String note) throws SQLException {
        c.setAutoCommit(false);
        try {
            if (column(c, JobLease.FENCE_SQL, job, holder, epoch).isEmpty()) {
                c.rollback();
                return false;
            }
            write(c, holder, epoch, note);
            c.commit();
            return true;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private void write(Connection c, String holder, long epoch, String note) throws SQLException {
        update(c, "INSERT INTO lease_write (job, holder, epoch, note) VALUES (?1, ?2, ?3, ?4)", job, holder, epoch, note);
    }

    private List<String> writes() throws SQLException {
        try (Connection c = db.getConnection()) {
            return NativeSql.strings(c, "SELECT holder || '@' || epoch || ': ' || note FROM lease_write WHERE job = ?1"
                    + " ORDER BY seq", job);
        }
    }
}
