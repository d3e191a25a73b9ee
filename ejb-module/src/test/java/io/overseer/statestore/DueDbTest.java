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
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The due-order poller's statement on PostgreSQL with the application's migrations: a delayed order is
 * not due before its not-before and is due from that instant, longest due first; a parked, claimed or
 * finished record never is; the statement reads the partial index order_state_due.
 */
class DueDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 24, 12, 0, 0, 0, ZoneOffset.UTC);

    private DataSource db;

    @BeforeEach
    void orders() throws SQLException {
        db = DB.getTestDatabase();
        try (Connection c = db.getConnection()) {
            update(c, "TRUNCATE customer_order CASCADE");
            insert(c, "later", "Pending", null, NOW.plusSeconds(30), null);
            insert(c, "due-now", "Pending", null, NOW, null);
            insert(c, "due-earlier", "Pending", null, NOW.minusSeconds(5), null);
            insert(c, "compensation-due", "Compensating", null, NOW.minusSeconds(1), null);
            insert(c, "parked", "Pending", null, NOW.minusSeconds(9), "charge-payment");
            insert(c, "running", "Processing", "instance-a", null, null);
            // a parallel group's branch waits to start again while its siblings run (V16)
            insert(c, "branch-due", "Processing", "instance-a", NOW.minusSeconds(7), null);
            insert(c, "undated", "Pending", null, null, null);
        }
    }

    @Test
    void dueOrdersAreTheWaitingOnesWhoseNotBeforeHasPassedLongestDueFirst() throws SQLException {
        try (Connection c = db.getConnection()) {
            assertEquals(List.of("branch-due", "due-earlier", "compensation-due", "due-now"), strings(c, Sweeps.DUE_SQL, NOW, 10));
            assertEquals(List.of("branch-due"), strings(c, Sweeps.DUE_SQL, NOW, 1));
            assertEquals(List.of("branch-due", "due-earlier", "compensation-due", "due-now", "later"),
                    strings(c, Sweeps.DUE_SQL, NOW.plusSeconds(30), 10));
        }
    }

    @Test
    void theQueryReadsTheDueIndex() throws SQLException {
        try (Connection c = db.getConnection()) {
            update(c, "SET enable_seqscan = off"); // a handful of rows: without this the planner scans the table
            String plan = String.join("\n", strings(c, "EXPLAIN " + Sweeps.DUE_SQL, NOW, 10));
            assertTrue(plan.contains("order_state_due"), plan);
        }
    }

    private static void insert(Connection c, String id, String state, String lockedBy, OffsetDateTime notBefore,
                               String pausedOn) throws SQLException {
        update(c, "INSERT INTO customer_order (order_id, customer_id, created_at) VALUES (?1, 'c', ?2)", id, NOW);
        update(c, "INSERT INTO order_state (order_id, workflow, process_state, locked_by, not_before, paused_on,"
                + " created_at, updated_at) VALUES (?1, 'order', ?2, ?3, ?4, ?5, ?6, ?6)",
                id, state, lockedBy, notBefore, pausedOn, NOW.minusMinutes(1));
    }
}
