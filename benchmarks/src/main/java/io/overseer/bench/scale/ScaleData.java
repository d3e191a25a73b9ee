package io.overseer.bench.scale;

import io.overseer.bench.peers.Cli;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Generates a state store of a given size with a few set-based statements (INSERT … SELECT over
 * generate_series): N finished orders (Processed, unlocked, three Completed steps, nine history rows),
 * a handful of live ones (Pending, and Processing with a complete-by an hour ahead), and a fixed number of
 * orders in Error spread over the same 30 days (they wait for an operator, who empties them: their number
 * does not grow with the finished ones; no steps or history, which no timed query reads).
 *
 * <p>Every order carries three business attributes, as {@link #REGIONS} and {@link #CHANNELS} name them:
 * {@code region} (one of 8, in turn: 1/8 of the orders each), {@code channel} (one of 3) and {@code batch}
 * (orders submitted together, 100 consecutive orders per batch id: a selective value). Each attribute row
 * carries its order's customer and, for a finished order, the copy of its listing columns that the
 * application writes when an order settles (V21).
 *
 * <p>Where: by default in a scratch schema whose tables are copies of the application's migrated ones
 * ({@code CREATE TABLE … (LIKE … INCLUDING ALL)}: the same columns, defaults, checks and identity, and
 * afterwards the same indexes, built once over the loaded rows, which is what keeps 1M orders with
 * history to a few minutes). Foreign keys are not copied: none of the timed queries reads them. Reset
 * is DROP SCHEMA. With {@code inPlace} the rows go into the application's own tables instead (slower:
 * every index is maintained row by row), marked by customer_id so that reset can delete them again.
 */
final class ScaleData {

    static final String MARKER = "bench-scale";
    static final String SCRATCH_SCHEMA = "bench_scale";
    /** The tables the timed queries need, in insert order. */
    static final List<String> TABLES = List.of("customer_order", "order_state", "order_attribute", "step_state",
            "order_history");
    /** The region of the order numbered i (from 1) is REGIONS[i % 8]. */
    static final List<String> REGIONS = List.of("eu-west", "eu-central", "eu-north", "us-east", "us-west",
            "ap-south", "ap-east", "sa-east");
    /** The channel of the order numbered i is CHANNELS[i % 3]. */
    static final List<String> CHANNELS = List.of("web", "store", "partner");
    /** Consecutive orders per batch id: finished order i is in batch "b-" + (i - 1) / BATCH. */
    static final int BATCH = 100;
    /**
     * How the order ids are made, system property {@code overseer.bench.scale.ids}: {@code random} (the
     * default: random UUIDs, as the application makes them; consecutive orders' keys are scattered over the
     * whole primary keys) or {@code v7} (UUID version 7 of the order's created_at, RFC 9562: consecutive
     * orders' keys are neighbours; the experiment of BENCHMARKS.md, "Business attributes at scale").
     */
    static final String IDS = System.getProperty("overseer.bench.scale.ids", "random");

    static {
        if (!List.of("v7", "random").contains(IDS)) {
            throw new IllegalArgumentException("overseer.bench.scale.ids must be v7 or random, not " + IDS);
        }
    }

    /** A finished order's updated_at: a second after its creation (order_state's, and V21's copy of it). */
    private static final String FINISHED_AT = "ts + interval '1 second'";

    private final Connection c;
    private final boolean inPlace;
    private final boolean unlogged;

    /** {@code unlogged}: scratch tables without WAL, a faster load; the timed queries only read (and lock). */
    ScaleData(Connection autocommit, boolean inPlace, boolean unlogged) {
        this.c = autocommit;
        this.inPlace = inPlace;
        this.unlogged = unlogged;
    }

    boolean inPlace() {
        return inPlace;
    }

    boolean unlogged() {
        return unlogged;
    }

    /** The schema the application migrated: where the JDBC URL's search_path leads. */
    String appSchema() throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT current_schema()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Removes what an earlier run generated, so every run starts fresh. */
    void reset(String appSchema) throws SQLException {
        if (!inPlace) {
            exec("DROP SCHEMA IF EXISTS " + SCRATCH_SCHEMA + " CASCADE");
            return;
        }
        String ours = "SELECT order_id FROM " + appSchema + ".customer_order WHERE customer_id = '" + MARKER + "'";
        for (String t : List.of("order_history", "step_state", "order_state", "order_line", "order_attribute", "customer_order")) {
            exec("DELETE FROM " + appSchema + "." + t + " WHERE order_id IN (" + ours + ")");
        }
    }

    /** Creates the scratch copies (no indexes yet) and points this session at the schema to load. */
    String prepare(String appSchema) throws SQLException {
        if (inPlace) {
            return appSchema;
        }
        exec("CREATE SCHEMA " + SCRATCH_SCHEMA);
        for (String t : TABLES) {
            exec("CREATE " + (unlogged ? "UNLOGGED " : "") + "TABLE " + SCRATCH_SCHEMA + "." + t + " (LIKE " + appSchema + "." + t
                    + " INCLUDING ALL EXCLUDING INDEXES)");
        }
        return SCRATCH_SCHEMA;
    }

    /**
     * Loads N finished, {@code live} live and {@code errors} orders in Error into {@code schema}, with their
     * attributes; history rows optional.
     */
    void load(String schema, int finished, int live, int errors, boolean history) throws SQLException {
        exec("SET search_path TO " + schema);
        // Index builds over millions of rows sort in memory instead of in temporary files (session only).
        exec("SET maintenance_work_mem = '256MB'");
        // One "now" for every statement (each is its own transaction, with its own now()): an order's
        // created_at, and with v7 ids its id, must be the same in every table.
        String now = "'" + OffsetDateTime.now(ZoneOffset.UTC) + "'::timestamptz";
        // Ids look like the application's (36-character UUIDs) but are reproducible; see IDS.
        String finTs = now + " - interval '30 days' + i * (interval '30 days' / " + Math.max(finished, 1) + ")";
        String fin = "SELECT " + id("'" + MARKER + "-' || i", finTs) + " AS id, i, " + finTs + " AS ts"
                + " FROM generate_series(1, " + finished + ") i";
        String livTs = now + " - interval '1 minute' - i * interval '1 second'";
        String liv = "SELECT " + id("'" + MARKER + "-live-' || i", livTs) + " AS id, i, " + livTs + " AS ts,"
                + " CASE WHEN i % 2 = 0 THEN 'Pending' ELSE 'Processing' END AS st"
                + " FROM generate_series(1, " + live + ") i";
        String errTs = now + " - interval '30 days' + i * (interval '30 days' / " + Math.max(errors, 1) + ")";
        String err = "SELECT " + id("'" + MARKER + "-error-' || i", errTs) + " AS id, i, " + errTs + " AS ts"
                + " FROM generate_series(1, " + errors + ") i";
        orders(fin, liv, err);
        attributes(fin, liv, err);
        steps(fin, liv);
        if (history) {
            history(fin, liv);
        }
    }

    /**
     * The orders and their states: the finished ones Processed and unlocked, the live ones Pending or
     * Processing (held by a node until an hour from now), those in Error after their retries.
     */
    private void orders(String fin, String liv, String err) throws SQLException {
        timed("customer_order", "INSERT INTO customer_order (order_id, customer_id, created_at)"
                + " SELECT id, '" + MARKER + "', ts FROM (" + fin + ") o"
                + " UNION ALL SELECT id, '" + MARKER + "', ts FROM (" + liv + ") l"
                + " UNION ALL SELECT id, '" + MARKER + "', ts FROM (" + err + ") e");
        timed("order_state", "INSERT INTO order_state (order_id, workflow, process_state, locked_by, complete_by,"
                + " failure_count, epoch, created_at, updated_at, version, history_count, has_attributes)"
                + " SELECT id, 'order', 'Processed', NULL, NULL, 0, 1, ts, " + FINISHED_AT + ", 9, 9, TRUE FROM (" + fin + ") o"
                + " UNION ALL SELECT id, 'order', st,"
                + " CASE WHEN st = 'Processing' THEN 'bench-node' END,"
                + " CASE WHEN st = 'Processing' THEN now() + interval '1 hour' END,"
                + " 0, CASE WHEN st = 'Processing' THEN 1 ELSE 0 END, ts, ts, 1, 1, TRUE FROM (" + liv + ") l");
        timed("order_state", "INSERT INTO order_state (order_id, workflow, process_state, failure_count, epoch,"
                + " last_error, created_at, updated_at, version, history_count, has_attributes)"
                + " SELECT id, 'order', 'Error', 3, 2, 'bench: refund-payment refused', ts, ts + interval '1 minute', 12, 12, TRUE"
                + " FROM (" + err + ") e");
    }

    private void attributes(String fin, String liv, String err) throws SQLException {
        // One statement per attribute: the order's number picks its region, channel and batch.
        String numbered = "SELECT id, i, ts, 'b' AS kind FROM (" + fin + ") o"
                + " UNION ALL SELECT id, i, ts, 'l' FROM (" + liv + ") l UNION ALL SELECT id, i, ts, 'e' FROM (" + err + ") e";
        // V21: each row carries its order's customer, and a finished (settled) order's rows a copy of its listing
        // columns, as the transaction that settled it wrote them; the others none.
        String copy = ", ts, '" + MARKER + "', CASE WHEN kind = 'b' THEN 'order' END, CASE WHEN kind = 'b' THEN 'Processed' END,"
                + " CASE WHEN kind = 'b' THEN 0 END, CASE WHEN kind = 'b' THEN " + FINISHED_AT + " END FROM (" + numbered + ") n";
        timed("order_attribute", "INSERT INTO order_attribute (order_id, name, value, created_at, customer_id, workflow,"
                + " process_state, failure_count, updated_at)"
                + " SELECT id, 'region', (" + array(REGIONS) + ")[1 + i % " + REGIONS.size() + "]" + copy
                + " UNION ALL SELECT id, 'channel', (" + array(CHANNELS) + ")[1 + i % " + CHANNELS.size() + "]" + copy
                + " UNION ALL SELECT id, 'batch', kind || '-' || (i - 1) / " + BATCH + copy);
    }

    /** A finished order's three steps Completed; a live one's not started, or the first Running if it is Processing. */
    private void steps(String fin, String liv) throws SQLException {
        String steps = "(VALUES (1, 'reserve-inventory'), (2, 'charge-payment'), (3, 'arrange-shipping')) s(seq, name)";
        timed("step_state", "INSERT INTO step_state (step_id, order_id, seq, name, state, attempts, updated_at)"
                + " SELECT id || '/' || s.seq, id, s.seq, s.name, 'Completed', 1, ts + s.seq * interval '100 milliseconds'"
                + " FROM (" + fin + ") o CROSS JOIN " + steps
                + " UNION ALL SELECT id || '/' || s.seq, id, s.seq, s.name,"
                + " CASE WHEN st = 'Processing' AND s.seq = 1 THEN 'Running' ELSE 'NotStarted' END, 0, ts"
                + " FROM (" + liv + ") l CROSS JOIN " + steps);
    }

    private void history(String fin, String liv) throws SQLException {
        // The nine transitions of a three-step order that went straight through.
        String events = "(VALUES (1, NULL, 'submission', NULL, 'Pending'),"
                + " (2, NULL, 'scheduler', 'Pending', 'Processing'),"
                + " (3, 'reserve-inventory', 'scheduler', 'NotStarted', 'Running'),"
                + " (4, 'reserve-inventory', 'agent', 'Running', 'Completed'),"
                + " (5, 'charge-payment', 'scheduler', 'NotStarted', 'Running'),"
                + " (6, 'charge-payment', 'agent', 'Running', 'Completed'),"
                + " (7, 'arrange-shipping', 'scheduler', 'NotStarted', 'Running'),"
                + " (8, 'arrange-shipping', 'agent', 'Running', 'Completed'),"
                + " (9, NULL, 'scheduler', 'Processing', 'Processed'))"
                + " e(seq, step_name, actor, from_state, to_state)";
        timed("order_history", "INSERT INTO order_history (order_id, seq, step_name, at, actor, actor_name,"
                + " from_state, to_state)"
                + " SELECT id, e.seq, e.step_name, ts + e.seq * interval '50 milliseconds', e.actor, '" + MARKER + "',"
                + " e.from_state, e.to_state FROM (" + fin + ") o CROSS JOIN " + events
                + " UNION ALL SELECT id, 1, NULL, ts, 'submission', '" + MARKER + "', NULL, 'Pending'"
                + " FROM (" + liv + ") l");
    }

    /** Builds the application's indexes on the scratch copies, one statement each, over the loaded rows. */
    void createIndexes(String appSchema) throws SQLException {
        if (inPlace) {
            return;
        }
        List<String> ddl = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = ? AND tablename = ANY(?)"
                        + " ORDER BY tablename, indexname")) {
            ps.setString(1, appSchema);
            ps.setArray(2, c.createArrayOf("text", TABLES.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String table = rs.getString(1);
                    String qualified = " ON " + appSchema + "." + table + " ";
                    String def = rs.getString(3);
                    if (!def.contains(qualified)) {
                        throw new IllegalStateException("Unexpected index definition: " + def);
                    }
                    ddl.add(def.replace(qualified, " ON " + SCRATCH_SCHEMA + "." + table + " "));
                }
            }
        }
        if (ddl.isEmpty()) {
            throw new IllegalStateException("No indexes found on " + appSchema + "." + TABLES
                    + ": is this the migrated state store?");
        }
        for (String d : ddl) {
            timed("index", d);
        }
    }

    /** VACUUM for the visibility map (old finished rows are all-visible in a real store), ANALYZE for the planner. */
    void vacuumAnalyze(String schema) throws SQLException {
        for (String t : TABLES) {
            timed("vacuum", "VACUUM (ANALYZE) " + schema + "." + t);
        }
    }

    /**
     * The order id for a seed and a created_at, both SQL expressions, as {@link #IDS} says: a random UUID
     * (md5 of the seed), or a UUID version 7 (RFC 9562) of that instant: the 48-bit Unix time in
     * milliseconds, the version nibble 7, 12 bits from the md5, the variant bits 10, 62 bits from the md5.
     */
    static String id(String seed, String ts) {
        String md5 = "md5(" + seed + ")";
        if (IDS.equals("random")) {
            return md5 + "::uuid::text";
        }
        String ms = "lpad(to_hex(floor(extract(epoch FROM " + ts + ") * 1000)::bigint), 12, '0')";
        return "(substr(" + ms + ", 1, 8) || '-' || substr(" + ms + ", 9, 4) || '-7' || substr(" + md5 + ", 1, 3)"
                + " || '-' || substr('89ab', 1 + get_byte(decode(substr(" + md5 + ", 4, 2), 'hex'), 0) % 4, 1)"
                + " || substr(" + md5 + ", 6, 3) || '-' || substr(" + md5 + ", 9, 12))";
    }

    private static String array(List<String> values) {
        return "ARRAY['" + String.join("', '", values) + "']";
    }

    long count(String schema, String table) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM " + schema + "." + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void timed(String what, String sql) throws SQLException {
        long t0 = System.nanoTime();
        exec(sql);
        Cli.log(String.format("  %-14s %6.1f s  %s", what, (System.nanoTime() - t0) / 1e9,
                sql.length() > 110 ? sql.substring(0, 110) + "…" : sql));
    }

    private void exec(String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
