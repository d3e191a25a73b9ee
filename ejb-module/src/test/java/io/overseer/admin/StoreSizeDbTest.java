package io.overseer.admin;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The state store's size on PostgreSQL with the migrations: every table of the schema with what the
 * statistics and the catalog say of it, the oldest finished order (Error is not finished: a retention keeps
 * it), and reads that cost no scan of the orders however many there are.
 */
class StoreSizeDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 29, 12, 0, 0, 0, ZoneOffset.UTC);

    @Test
    void eachTableWithItsRowsAndBytesAndTheOldestFinishedOrder() throws Exception {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            FinishedTallyDbTest.orders(c, "error", 3, "Error", T0.minusDays(9));
            FinishedTallyDbTest.orders(c, "old-c", 2, "Compensated", T0.minusDays(4));
            FinishedTallyDbTest.orders(c, "done", 5_000, "Processed", T0.minusDays(1));
            FinishedTallyDbTest.orders(c, "live", 10, "Processing", T0);
            update(c, "DELETE FROM order_state WHERE order_id LIKE 'done-1%'"); // 1,111 rows
            // The statistics as autovacuum keeps them: this backend's counts published, then ANALYZE's.
            strings(c, "SELECT 'flushed' FROM (SELECT pg_stat_force_next_flush()) f");
            strings(c, "SELECT 1::text");
            update(c, "ANALYZE order_state");
        }
        StoreSize.Size size = jpa.inTransaction(em -> {
            StoreSize store = new StoreSize();
            store.em = em;
            return store.size();
        });
        StoreSize.Table orderState = size.tables().stream().filter(t -> t.table().equals("order_state")).findFirst().orElseThrow();
        // Estimates: 3,904 live and 1,111 dead rows, as PostgreSQL's statistics have them.
        assertTrue(orderState.rows() >= 3_500 && orderState.rows() <= 4_300, "live rows: " + orderState);
        assertTrue(orderState.deadRows() >= 1_000, "deleted, not yet vacuumed: " + orderState);
        assertTrue(orderState.tableBytes() > 8192 * 10 && orderState.indexBytes() > orderState.tableBytes() / 10, orderState.toString());
        assertTrue(size.tables().stream().map(StoreSize.Table::table).toList().containsAll(
                java.util.List.of("customer_order", "order_line", "order_state", "step_state", "order_history", "submission_key")),
                size.tables().toString());
        assertEquals(size.tables().stream().mapToLong(t -> t.tableBytes() + t.indexBytes()).sum(), size.totalBytes());
        assertEquals(T0.minusDays(4), size.oldestFinished(), "the oldest Compensated one; the older Error orders are not finished");

        try (Connection c = DB.getTestDatabase().getConnection()) {
            String plan = String.join("\n", strings(c, "EXPLAIN " + StoreSize.OLDEST_FINISHED_SQL));
            assertTrue(plan.contains("order_state_finished") && !plan.contains("Seq Scan"), plan);
        }
    }
}
