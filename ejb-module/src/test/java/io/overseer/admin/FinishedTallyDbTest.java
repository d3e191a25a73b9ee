package io.overseer.admin;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.overseer.statestore.ProcessState;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The overview's counts by state on PostgreSQL with the migrations: {@link FinishedTally} keeps telling the
 * truth (the same figures as a count of the whole table) as orders finish, late commits included, and the
 * overview's statements (its counts, and the oldest waiting order) read only the index entries of live and
 * recently finished orders, not the finished ones piling up.
 */
public class FinishedTallyDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 27, 12, 0, 0, 0, ZoneOffset.UTC);
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    @Test
    void theTallyAgreesWithAWholeTableCountAsOrdersFinishLateCommitsIncluded() throws Exception {
        FinishedTally tally = new FinishedTally();
        orders("old-p", 300, "Processed", T0.minusDays(2));
        orders("old-c", 20, "Compensated", T0.minusDays(1));
        orders("recent-p", 5, "Processed", T0.minusMinutes(3));
        agrees(tally, T0);

        orders("new-p", 7, "Processed", T0.plusMinutes(1));
        agrees(tally, T0.plusMinutes(2));
        // a transaction that read the clock before the last sample and committed after it
        orders("late-p", 2, "Processed", T0.plusMinutes(1).plusSeconds(30));
        agrees(tally, T0.plusMinutes(2).plusSeconds(15));

        // past two settle periods: the mark moves on, what finished before it joins the settled count
        orders("later-c", 3, "Compensated", T0.plusMinutes(19));
        agrees(tally, T0.plusMinutes(25));
        orders("late-c", 4, "Compensated", T0.plusMinutes(24)); // committed 1 min late, after the mark moved
        agrees(tally, T0.plusMinutes(25).plusSeconds(15));
        agrees(tally, T0.plusMinutes(50));
        agrees(new FinishedTally(), T0.plusMinutes(50)); // an instance starting now
    }

    @Test
    void theOverviewReadsTheIndexesOfLiveAndRecentlyFinishedOrdersNotTheFinishedOnes() throws Exception {
        orders("many-p", 20_000, "Processed", T0.minusDays(3));
        orders("live", 30, "Pending", T0.minusSeconds(1));
        orders("running", 30, "Processing", T0);
        orders("error", 5, "Error", T0);
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "ANALYZE order_state");
            String live = plan(c, "EXPLAIN " + AdminQueries.LIVE_COUNTS_SQL);
            assertTrue(live.contains("order_state_listing_by_state") && !live.contains("Seq Scan"), live);
            String recent = plan(c, "EXPLAIN " + FinishedTally.RECENT_SQL, T0.minusMinutes(20));
            assertTrue(recent.contains("order_state_finished") && !recent.contains("Seq Scan"), recent);
            String settle = plan(c, "EXPLAIN " + FinishedTally.SETTLE_SQL, T0.minusMinutes(20), T0.minusMinutes(10));
            assertTrue(settle.contains("order_state_finished") && !settle.contains("Seq Scan"), settle);
            // The console's oldest waiting order: the first entry of each live state's range, not a walk past
            // every finished order.
            String oldest = plan(c, "EXPLAIN ANALYZE " + AdminQueries.OLDEST_WAITING_SQL);
            assertTrue(oldest.contains("order_state_listing_by_state") && !oldest.contains("Rows Removed by Filter")
                    && !oldest.contains("Seq Scan"), oldest);
            assertEquals(List.of("live-1"), strings(c, AdminQueries.OLDEST_WAITING_SQL.replace("order_id, process_state,"
                    + " created_at FROM (", "order_id FROM (")), "the oldest, by created_at and then id");
        }
    }

    private static String plan(Connection c, String explain, Object... parameters) throws Exception {
        return String.join("\n", strings(c, explain, parameters));
    }

    /** The tally and a count of the whole table agree, for the two states the tally counts. */
    private static void agrees(FinishedTally tally, OffsetDateTime now) throws Exception {
        Map<ProcessState, Long> whole = new EnumMap<>(ProcessState.class);
        whole.put(ProcessState.Processed, 0L);
        whole.put(ProcessState.Compensated, 0L);
        try (Connection c = DB.getTestDatabase().getConnection()) {
            for (String row : strings(c, "SELECT process_state || ' ' || count(*) FROM order_state"
                    + " WHERE process_state IN ('Processed', 'Compensated') GROUP BY process_state")) {
                String[] parts = row.split(" ");
                whole.put(ProcessState.valueOf(parts[0]), Long.parseLong(parts[1]));
            }
        }
        assertEquals(whole, jpa.inTransaction(em -> tally.counts(em, now)), "at " + now);
    }

    private static void orders(String prefix, int count, String state, OffsetDateTime updatedAt) throws Exception {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            orders(c, prefix, count, state, updatedAt);
        }
    }

    /** {@code count} orders "prefix-1"… in {@code state}, last moved at {@code updatedAt}: their records only. */
    public static void orders(Connection c, String prefix, int count, String state, OffsetDateTime updatedAt) throws Exception {
        update(c, "INSERT INTO customer_order (order_id, customer_id, created_at)"
                + " SELECT ?1 || '-' || i, 'c', ?2 FROM generate_series(1, ?3) i", prefix, updatedAt, count);
        update(c, "INSERT INTO order_state (order_id, workflow, process_state, created_at, updated_at)"
                + " SELECT ?1 || '-' || i, 'order', ?4, ?2, ?2 FROM generate_series(1, ?3) i",
                prefix, updatedAt, count, state);
    }

}
