package io.overseer.bench.ceilings;

import io.overseer.bench.peers.Cli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The database's commit ceiling on this machine: Debian's pgbench running a custom script of one
 * single-row INSERT per transaction (autocommit, so one commit and one WAL flush each, group commit
 * permitting) at 1, 8 and 32 clients. Every Overseer transition is at least such a commit, so this is
 * the rate no state store design can beat on the same disk.
 *
 * <pre>
 * PgbenchCeiling --host H --port P --user U --password PW --db DB [--seconds 10] [--clients 1,8,32]
 *                [--pgbench /usr/bin/pgbench]
 * </pre>
 * The table {@code bench_ceiling_insert} is created, emptied before each client count and dropped at
 * the end. One RESULT per client count, parsed from pgbench's "tps = …" line.
 */
public final class PgbenchCeiling {

    private static final Set<String> ARGS = Set.of("host", "port", "user", "password", "db", "seconds", "clients",
            "pgbench");
    private static final String TABLE = "bench_ceiling_insert";
    // An identity key like every real row has; no other index, so the figure is the commit, not indexing.
    private static final String CREATE = "CREATE TABLE " + TABLE + " (id BIGINT GENERATED ALWAYS AS IDENTITY"
            + " PRIMARY KEY, client_id INT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())";
    private static final String SCRIPT = "INSERT INTO " + TABLE + " (client_id) VALUES (:client_id);\n";

    private static final Pattern TPS = Pattern.compile("^tps = ([0-9.]+)", Pattern.MULTILINE);
    private static final Pattern PROCESSED =
            Pattern.compile("^number of transactions actually processed: (\\d+)", Pattern.MULTILINE);
    private static final Pattern FAILED = Pattern.compile("^number of failed transactions: (\\d+)", Pattern.MULTILINE);

    public static void main(String[] args) {
        Cli.run("PgbenchCeiling", () -> new PgbenchCeiling().run(Cli.parse(args, ARGS)));
    }

    private void run(Cli cli) throws Exception {
        String host = cli.required("host");
        String port = cli.required("port");
        String user = cli.required("user");
        String password = cli.required("password");
        String db = cli.required("db");
        int seconds = cli.getInt("seconds", 10);
        Target target = new Target(cli.get("pgbench", "/usr/bin/pgbench"), host, port, user, password, db);
        List<Integer> clientCounts = new ArrayList<>();
        for (String c : cli.get("clients", "1,8,32").split(",")) {
            clientCounts.add(Integer.parseInt(c.trim()));
        }
        String jdbc = "jdbc:postgresql://" + host + ":" + port + "/" + db;
        String pgbenchVersion = runAndCapture(List.of(target.pgbench(), "--version"), Map.of(), 30).trim();

        Path script = Files.createTempFile("pgbench-insert-", ".sql");
        try (Connection c = DriverManager.getConnection(jdbc, user, password); Statement s = c.createStatement()) {
            // A ceiling measured with fsync or synchronous_commit off would not be one: say what was on.
            String fsync = show(s, "fsync");
            String syncCommit = show(s, "synchronous_commit");
            String serverVersion = show(s, "server_version");
            s.execute("DROP TABLE IF EXISTS " + TABLE);
            s.execute(CREATE);
            Files.writeString(script, SCRIPT, StandardCharsets.UTF_8);
            try {
                for (int clients : clientCounts) {
                    s.execute("TRUNCATE " + TABLE);
                    boolean checkpointed = checkpoint(s);
                    Map<String, Object> r = commitsPerSecond(target, s, script, seconds, clients);
                    r.put("script", SCRIPT.trim());
                    r.put("version", pgbenchVersion);
                    r.put("postgres", serverVersion);
                    r.put("checkpointBefore", checkpointed);
                    r.put("fsync", fsync);
                    r.put("synchronous_commit", syncCommit);
                    Cli.print(r);
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS " + TABLE);
            }
        } finally {
            Files.deleteIfExists(script);
        }
    }

    /** The pgbench program and the database it runs against. */
    private record Target(String pgbench, String host, String port, String user, String password, String db) {
    }

    /**
     * One client count's run of the script, for {@code seconds}: its commits per second, and its transactions
     * checked against pgbench's failures and against the rows the table holds.
     */
    private static Map<String, Object> commitsPerSecond(Target target, Statement s, Path script, int seconds, int clients)
            throws Exception {
        int threads = Math.min(clients, 2);
        List<String> cmd = List.of(target.pgbench(), "-n", "-T", Integer.toString(seconds),
                "-c", Integer.toString(clients), "-j", Integer.toString(threads),
                "-f", script.toString(), "-h", target.host(), "-p", target.port(), "-U", target.user(), target.db());
        Cli.log("PgbenchCeiling: " + String.join(" ", cmd));
        String out = runAndCapture(cmd, Map.of("PGPASSWORD", target.password()), seconds + 120);
        double tps = parseDouble(TPS, out, "tps");
        long processed = (long) parseDouble(PROCESSED, out, "transactions processed");
        Matcher failed = FAILED.matcher(out);
        if (failed.find() && Long.parseLong(failed.group(1)) != 0) {
            throw new IllegalStateException("pgbench reported failed transactions:\n" + out);
        }
        long rows = count(s);
        if (rows != processed) {
            throw new IllegalStateException("pgbench says " + processed + " transactions, the table holds "
                    + rows + " rows");
        }
        Map<String, Object> r = Cli.result("ceiling.pgbench.insert.c" + clients, "commits/s", tps);
        r.put("clients", clients);
        r.put("threads", threads);
        r.put("seconds", seconds);
        r.put("transactions", processed);
        return r;
    }

    private static String show(Statement s, String setting) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * A checkpoint before each client count, so one count does not pay for the previous one's dirty pages.
     * It needs superuser or pg_checkpoint; an application user may not, and then the run goes on without.
     */
    private static boolean checkpoint(Statement s) {
        try {
            s.execute("CHECKPOINT");
            return true;
        } catch (SQLException e) {
            Cli.log("PgbenchCeiling: no CHECKPOINT before the run (" + e.getMessage().trim() + ")");
            return false;
        }
    }

    private static long count(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + TABLE)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static double parseDouble(Pattern p, String out, String what) {
        Matcher m = p.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("No " + what + " in pgbench's output:\n" + out);
        }
        return Double.parseDouble(m.group(1));
    }

    private static String runAndCapture(List<String> cmd, Map<String, String> env, int timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        // pgbench's output is a few lines: reading it after exit cannot fill the pipe.
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(cmd.get(0) + " did not finish within " + timeoutSeconds + " s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited with " + p.exitValue() + ":\n" + out);
        }
        return out;
    }
}
