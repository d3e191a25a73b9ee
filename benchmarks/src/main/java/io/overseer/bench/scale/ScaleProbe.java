package io.overseer.bench.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.bench.peers.Cli;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How the state store's hot queries (claim, claim by ids, the supervisor's sweep, today's stranded
 * poll) and the listing filtered on a business attribute ({@link AttributeListings}) behave when finished
 * orders pile up: loads N finished orders plus ~50 live ones and 200 in Error, each with its attributes,
 * then runs each query under EXPLAIN (ANALYZE, BUFFERS) and reports the median execution time and the
 * plan's shape.
 *
 * <pre>
 * ScaleProbe --jdbc URL --user U --password P --finished N [--live 50] [--errors 200] [--runs 20] [--history full|none]
 *            [--in-place] [--keep] [--reset] [--unlogged]
 * </pre>
 * Every run is FRESH: what an earlier run generated is removed first, so "--finished 10000" then
 * "--finished 1000000" measure 10,000 and 1,000,000 finished orders, not 1,010,000. By default the
 * rows go into a scratch schema (bench_scale) of copies of the application's tables, dropped at the
 * end (--keep leaves it); --in-place loads into the application's own tables instead (stop the
 * application first: it would claim the live Pending orders), and --reset alone removes generated rows.
 * In place, every row maintains the application's indexes and foreign keys as it goes in and comes out
 * (10,000 orders: 17 s to load, 7.5 s to remove on a busy 2-core machine): use it for small N only.
 * --unlogged makes the scratch tables UNLOGGED: a faster load (no WAL), the same plans and reads.
 * The system property overseer.bench.scale.ids=v7 makes the order ids time-ordered (UUID version 7 of each
 * order's created_at) instead of random, as the application makes them ({@link ScaleData#IDS}). The system
 * property overseer.bench.scale.plans=generic times each query as a prepared statement under its generic plan
 * (PREPARE, then EXPLAIN … EXECUTE with plan_cache_mode = force_generic_plan: the plan a statement the
 * JDBC driver prepared on the server may settle on after five executions), instead of planned with the
 * values bound (custom, the default).
 */
public final class ScaleProbe {

    private static final Set<String> ARGS = Set.of("jdbc", "user", "password", "finished", "live", "errors", "runs",
            "history", "in-place", "keep", "reset", "unlogged");
    /** The product's numbered parameters (?1, ?2…, numbered in the order they appear), as JDBC's. */
    private static final Pattern NUMBERED = Pattern.compile("\\?\\d+");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** custom (the default) or generic: see the class comment. */
    static final String PLANS = System.getProperty("overseer.bench.scale.plans", "custom");

    static {
        if (!List.of("custom", "generic").contains(PLANS)) {
            throw new IllegalArgumentException("overseer.bench.scale.plans must be custom or generic, not " + PLANS);
        }
    }

    public static void main(String[] args) {
        Cli.run("ScaleProbe", () -> new ScaleProbe().run(Cli.parse(args, ARGS)));
    }

    private void run(Cli cli) throws Exception {
        boolean inPlace = cli.flag("in-place");
        boolean keep = cli.flag("keep");
        int live = cli.getInt("live", 50);
        int errors = cli.getInt("errors", 200);
        int runs = cli.getInt("runs", 20);
        String historyArg = cli.get("history", "full");
        if (!Set.of("full", "none").contains(historyArg)) {
            throw new IllegalArgumentException("--history must be full or none");
        }
        boolean history = historyArg.equals("full");
        try (Connection c = DriverManager.getConnection(cli.required("jdbc"), cli.required("user"),
                cli.required("password"))) {
            boolean unlogged = cli.flag("unlogged");
            if (unlogged && inPlace) {
                throw new IllegalArgumentException("--unlogged applies to the scratch schema, not --in-place");
            }
            ScaleData data = new ScaleData(c, inPlace, unlogged);
            String appSchema = data.appSchema();
            long r0 = System.nanoTime();
            data.reset(appSchema);
            Cli.log(String.format("ScaleProbe: removed earlier generated rows in %.1f s", (System.nanoTime() - r0) / 1e9));
            if (cli.flag("reset")) {
                return;
            }
            int finished = cli.getInt("finished", -1);
            if (finished < 0) {
                throw new IllegalArgumentException("--finished N is required (or --reset alone)");
            }
            String version = serverVersion(c);
            String schema = load(data, appSchema, finished, live, errors, history, version);
            try {
                probeAll(c, schema, finished, live, runs, version);
            } finally {
                c.rollback();
                c.setAutoCommit(true);
                if (!keep) {
                    long d0 = System.nanoTime();
                    data.reset(appSchema);
                    Cli.log(String.format("ScaleProbe: removed generated rows in %.1f s", (System.nanoTime() - d0) / 1e9));
                }
            }
        }
    }

    /** Generates the state store and prints what it holds and how long that took; returns the schema it is in. */
    private static String load(ScaleData data, String appSchema, int finished, int live, int errors, boolean history,
                               String version) throws Exception {
        long t0 = System.nanoTime();
        String schema = data.prepare(appSchema);
        data.load(schema, finished, live, errors, history);
        data.createIndexes(appSchema);
        data.vacuumAnalyze(schema);
        double loadSeconds = (System.nanoTime() - t0) / 1e9;
        Map<String, Object> load = Cli.result("scale.load.f" + finished, "s", loadSeconds);
        load.put("finished", finished);
        load.put("live", live);
        load.put("errors", errors);
        load.put("attributeRows", data.count(schema, "order_attribute"));
        load.put("orderStateRows", data.count(schema, "order_state"));
        load.put("stepStateRows", data.count(schema, "step_state"));
        load.put("historyRows", data.count(schema, "order_history"));
        load.put("history", history ? "about 9 rows per finished order" : "skipped (--history none)");
        load.put("where", data.inPlace() ? "application tables (in place)" : "scratch schema " + schema
                + " (copies of the application's tables and indexes, no foreign keys)");
        load.put("unlogged", data.unlogged());
        load.put("ids", ScaleData.IDS);
        load.put("plans", PLANS);
        load.put("postgres", version);
        Cli.print(load);
        return schema;
    }

    /**
     * Times each query on the loaded state store: the claims, the sweeps, the listings by attribute. Autocommit
     * off, so that {@link #probe} can roll back each run: the claims lock rows.
     */
    private static void probeAll(Connection c, String schema, int finished, int live, int runs, String version)
            throws Exception {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
        }
        List<String> liveIds = liveIds(c, 32);
        Map<String, Object> ids = Map.of("ids", liveIds.size());
        List<Object> idArray = List.of(c.createArrayOf("varchar", liveIds.toArray()));
        probe(c, "claim", StateStoreQueries.CLAIM, List.of(), Map.of(), finished, live, runs, version);
        probe(c, "claim-by-ids", StateStoreQueries.CLAIM_BY_IDS, idArray, ids, finished, live, runs, version);
        probe(c, "sweep", StateStoreQueries.SWEEP, List.of(), Map.of(), finished, live, runs, version);
        probe(c, "stranded", StateStoreQueries.STRANDED, List.of(), Map.of(), finished, live, runs, version);
        for (AttributeListings.Listing l : AttributeListings.of(c, finished)) {
            probe(c, l.name(), NUMBERED.matcher(l.sql().sql()).replaceAll("?"), l.sql().parameters(),
                    l.details(), finished, live, runs, version);
        }
    }

    /** Ids of live orders (Pending and Processing alike: the claim's WHERE decides which it takes). */
    private static List<String> liveIds(Connection c, int n) throws Exception {
        List<String> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT order_id FROM order_state"
                + " WHERE process_state IN ('Pending', 'Processing') ORDER BY order_id LIMIT ?")) {
            ps.setInt(1, n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        c.rollback();
        return ids;
    }

    /**
     * One untimed run, then {@code runs} timed ones, each in a transaction rolled back (the claim locks rows).
     * EXPLAIN plans with the values bound, as the first executions of a prepared statement are planned.
     */
    private static void probe(Connection c, String name, String sql, List<Object> parameters,
                              Map<String, Object> details, int finished, int live, int runs, String version)
            throws Exception {
        List<Double> exec = new ArrayList<>();
        List<Double> planning = new ArrayList<>();
        JsonNode last = null;
        for (int i = 0; i <= runs; i++) {
            JsonNode result = explain(c, sql, parameters);
            c.rollback();
            if (i == 0) {
                continue; // the first run pays for cold caches and the plan cache
            }
            exec.add(result.get("Execution Time").asDouble());
            planning.add(result.get("Planning Time").asDouble());
            last = result;
        }
        JsonNode plan = last.get("Plan");
        Map<String, Object> r = Cli.result("scale." + name + ".f" + finished, "ms", Cli.median(exec));
        r.put("query", name);
        r.put("finished", finished);
        r.put("live", live);
        r.put("runs", runs);
        r.put("plans", PLANS);
        r.put("planningMs", Cli.round(Cli.median(planning)));
        r.put("maxMs", Cli.round(exec.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
        r.put("rows", plan.path("Actual Rows").asLong());
        r.put("sharedHitBlocks", plan.path("Shared Hit Blocks").asLong());
        r.put("sharedReadBlocks", plan.path("Shared Read Blocks").asLong());
        r.put("plan", PlanSummary.of(plan));
        r.putAll(details);
        r.put("sql", sql);
        r.put("postgres", version);
        Cli.print(r);
    }

    private static JsonNode explain(Connection c, String sql, List<Object> parameters) throws Exception {
        String explained = sql;
        if (PLANS.equals("generic")) {
            StringBuilder numbered = new StringBuilder();
            int n = 0;
            for (char ch : sql.toCharArray()) {
                numbered.append(ch == '?' ? "$" + ++n : String.valueOf(ch));
            }
            try (Statement s = c.createStatement()) {
                s.execute("SET plan_cache_mode = force_generic_plan");
                s.execute("DEALLOCATE ALL");
                s.execute("PREPARE scale_probe AS " + numbered);
            }
            // EXPLAIN EXECUTE takes no bound parameters: the values are written as literals
            List<String> values = new ArrayList<>();
            for (Object value : parameters) {
                values.add(literal(value));
            }
            explained = "EXECUTE scale_probe" + (n == 0 ? "" : "(" + String.join(", ", values) + ")");
        }
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + explained)) {
            for (int i = 0; !explained.startsWith("EXECUTE") && i < parameters.size(); i++) {
                ps.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return JSON.readTree(rs.getString(1)).get(0);
            }
        }
    }

    /** A bound value as an SQL literal: a number as it is, anything else (text, instant, array) quoted. */
    private static String literal(Object value) {
        return value instanceof Number ? value.toString() : "'" + value.toString().replace("'", "''") + "'";
    }

    private static String serverVersion(Connection c) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW server_version")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
