package io.overseer.statestore;

import static io.overseer.platform.NativeSql.column;
import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
 * The flow limits' statements on PostgreSQL with the application's migrations: a second transaction that
 * would admit attempts of a limited operation waits for the first (the operation's row lock), so the
 * instances count one after the other; running attempts are counted by their operation; a freed slot makes
 * the longest-waiting throttled records claimable, never a parked one.
 */
class FlowDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 24, 12, 0, 0, 0, ZoneOffset.UTC);

    private DataSource db;

    @BeforeEach
    void orders() throws SQLException {
        db = DB.getTestDatabase();
        try (Connection c = db.getConnection()) {
            update(c, "TRUNCATE customer_order, flow_limit CASCADE");
            insert(c, "running-1", "Processing", "node-a", "limited", null, null, null);
            insert(c, "running-2", "Processing", "node-b", "limited", null, null, null);
            insert(c, "waiting-long", "Pending", null, null, "limited", NOW.minusSeconds(3), null);
            insert(c, "waiting-short", "Pending", null, null, "limited", NOW.plusSeconds(1), null);
            insert(c, "waiting-parked", "Pending", null, null, "limited", NOW.minusSeconds(9), "limited");
            insert(c, "waiting-other", "Pending", null, null, "other", NOW.minusSeconds(9), null);
        }
    }

    @Test
    void admissionsOfOneOperationAreSerialisedByItsRow() throws SQLException {
        try (Connection first = db.getConnection(); Connection second = db.getConnection()) {
            update(first, FlowWindows.FLOW_ROW_SQL, "limited"); // an earlier admission made the row
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            update(first, FlowWindows.FLOW_ROW_SQL, "limited");
            assertEquals(1, column(first, FlowWindows.FLOW_LOCK_SQL, "limited").size());
            assertEquals(List.of(2L), column(first, FlowWindows.FLOW_RUNNING_SQL, "limited"));
            update(first, FlowWindows.FLOW_SAVE_SQL, "limited", NOW, 3);

            update(second, "SET lock_timeout = '300ms'");
            update(second, FlowWindows.FLOW_ROW_SQL, "other");
            assertEquals(1, column(second, FlowWindows.FLOW_LOCK_SQL, "other").size(), "another operation's row: no wait");
            assertThrows(SQLException.class, () -> {
                update(second, FlowWindows.FLOW_ROW_SQL, "limited");
                column(second, FlowWindows.FLOW_LOCK_SQL, "limited");
            }, "waits for the first transaction's admissions");
            second.rollback();

            first.commit();
            assertEquals(1, column(second, FlowWindows.FLOW_LOCK_SQL, "limited").size(), "then it takes the lock");
            assertEquals(List.of("3"), strings(second, "SELECT window_starts FROM flow_limit WHERE operation = 'limited'"),
                    "and reads the window the first one wrote");
            second.commit();
        }
    }

    @Test
    void aFreedSlotMakesTheLongestWaitingThrottledRecordClaimableButNeverAParkedOne() throws SQLException {
        try (Connection c = db.getConnection()) {
            assertEquals(List.of("waiting-long"), strings(c, StateStore.RELEASE_THROTTLED_SQL, "limited", 1));
            assertEquals(List.of("waiting-short"), strings(c, StateStore.RELEASE_THROTTLED_SQL, "limited", 5),
                    "the parked one stays parked, the one released already is not released twice");
            assertTrue(strings(c, "SELECT order_id FROM order_state WHERE not_before IS NULL AND throttled_on = 'limited'")
                    .containsAll(List.of("waiting-long", "waiting-short")));
        }
    }

    private static void insert(Connection c, String id, String state, String lockedBy, String running, String throttled,
                               OffsetDateTime notBefore, String pausedOn) throws SQLException {
        update(c, "INSERT INTO customer_order (order_id, customer_id, created_at) VALUES (?1, 'c', ?2)", id, NOW);
        update(c, "INSERT INTO order_state (order_id, workflow, process_state, locked_by, throttled_on,"
                + " not_before, paused_on, created_at, updated_at) VALUES (?1, 'order', ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
                id, state, lockedBy, throttled, notBefore, pausedOn, NOW.minusMinutes(1));
        // a running attempt holds its limit's slot on its step (V16: the branches of a group each hold one)
        update(c, "INSERT INTO step_state (step_id, order_id, seq, name, state, locked_by, running_operation, updated_at)"
                + " VALUES (?1, ?2, 0, 'a', ?3, ?4, ?5, ?6)", id + "/0", id, lockedBy == null ? "NotStarted" : "Running",
                lockedBy, running, NOW);
    }
}
