package io.overseer.admin;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.overseer.platform.MigratedDatabase;
import io.overseer.platform.NativeSql;
import io.overseer.statestore.StateStore;
import io.overseer.statestore.Sweeps;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pauses on PostgreSQL with the application's migrations and the product's own statements: a parked
 * order is invisible to the stranded-order poller, and a resume racing a scheduler that read the pause
 * and parks an order on it still unparks that order — none is left parked on a pause that is gone.
 */
class PauseDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 23, 12, 0, 0, 0, ZoneOffset.UTC);

    private DataSource db;
    private final ExecutorService resumer = Executors.newSingleThreadExecutor();
    private final ExecutorService laterScheduler = Executors.newSingleThreadExecutor();

    @BeforeEach
    void oneOrderAndOnePause() throws SQLException {
        db = DB.getTestDatabase();
        try (Connection c = db.getConnection()) {
            update(c, "TRUNCATE customer_order, dispatch_pause CASCADE");
            update(c, "INSERT INTO customer_order (order_id, customer_id, created_at) VALUES ('o-1', 'c', ?1)", NOW);
            update(c, "INSERT INTO order_state (order_id, workflow, process_state, created_at, updated_at)"
                    + " VALUES ('o-1', 'order', 'Pending', ?1, ?1)", NOW.minusMinutes(1));
            update(c, "INSERT INTO dispatch_pause (scope, paused_by, reason, paused_at)"
                    + " VALUES ('charge-payment', 'ops', 'maintenance', ?1)", NOW);
        }
    }

    @AfterEach
    void stop() {
        resumer.shutdownNow();
        laterScheduler.shutdownNow();
    }

    @Test
    void aParkedOrderIsNotStrandedAndAResumeMakesItClaimableAgain() throws SQLException {
        try (Connection c = db.getConnection()) {
            assertEquals(List.of("o-1"), strings(c, Sweeps.STRANDED_SQL, NOW, NOW, 10));
            update(c, "UPDATE order_state SET paused_on = 'charge-payment' WHERE order_id = 'o-1'");
            assertEquals(List.of(), strings(c, Sweeps.STRANDED_SQL, NOW, NOW, 10), "parked: not the poller's");
            assertEquals(List.of(), strings(c, StateStore.unparkSql(false), NOW, "reserve-inventory"),
                    "another operation's resume leaves it parked");
            assertEquals(List.of("o-1"), strings(c, StateStore.unparkSql(false), NOW.minusMinutes(1), "charge-payment"));
            assertEquals(List.of("o-1"), strings(c, Sweeps.STRANDED_SQL, NOW, NOW, 10));
        }
    }

    @Test
    void aResumeWaitsForTheSchedulerThatReadThePauseAndThenUnparksWhatItParked() throws Exception {
        try (Connection scheduler = db.getConnection()) {
            scheduler.setAutoCommit(false);
            // The claim's lock statement locks o-1 and reads (share-locks) the pauses in one statement.
            assertEquals(List.of("o-1 charge-payment"), claim(scheduler));

            CompletableFuture<List<String>> resumed = CompletableFuture.supplyAsync(() -> {
                try (Connection operator = db.getConnection()) {
                    operator.setAutoCommit(false);
                    update(operator, DispatchPauses.RESUME_LOCK_SQL);
                    update(operator, DispatchPauses.RESUME_SQL, "charge-payment");
                    List<String> unparked = strings(operator, StateStore.unparkSql(false), NOW, "charge-payment");
                    operator.commit();
                    return unparked;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, resumer);
            MigratedDatabase.awaitLockWaiters(db, 1);
            assertFalse(resumed.isDone(), "the resume waits while a scheduler holds the pause it read");
            // A later scheduler queues behind the waiting resume, rather than overtaking it with a share lock
            // of its own (which PostgreSQL would grant at once): steady claims cannot starve a resume.
            CompletableFuture<List<String>> later = CompletableFuture.supplyAsync(() -> {
                try (Connection next = db.getConnection()) {
                    next.setAutoCommit(false);
                    List<String> claimed = claim(next);
                    next.commit();
                    return claimed;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, laterScheduler);
            MigratedDatabase.awaitLockWaiters(db, 2);
            assertFalse(later.isDone(), "a scheduler that comes after the resume waits for it");

            // The scheduler parks the order on the pause it read, then commits.
            update(scheduler, "UPDATE order_state SET paused_on = 'charge-payment' WHERE order_id = 'o-1'");
            scheduler.commit();

            assertEquals(List.of("o-1"), resumed.get(10, TimeUnit.SECONDS), "the resume unparks what was parked meanwhile");
            assertEquals(List.of("o-1 null"), later.get(10, TimeUnit.SECONDS),
                    "and then claims the unparked order and finds nothing paused");
        }
        try (Connection c = db.getConnection()) {
            assertEquals(List.of(), strings(c, "SELECT order_id FROM order_state WHERE paused_on IS NOT NULL"));
        }
    }

    /** The scheduler's claim statement for o-1: each locked id with the pauses it read ("id pauses"). */
    private static List<String> claim(Connection scheduler) throws SQLException {
        List<String> rows = new java.util.ArrayList<>();
        try (var statement = NativeSql.prepare(scheduler, StateStore.lockClaimableSql(1), NOW, "o-1");
             var result = statement.executeQuery()) {
            while (result.next()) {
                rows.add(result.getString(1) + " " + result.getString(2));
            }
        }
        return rows;
    }
}
