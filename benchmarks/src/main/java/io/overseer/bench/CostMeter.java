package io.overseer.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * What the stack did during a phase, counted rather than timed: CPU ticks of each process (/proc), PostgreSQL
 * commits (pg_stat_database.xact_commit of the application's database) and statements (pg_stat_statements,
 * top-level, that database), and messages added to the broker's durable queues. Read at the start and end of a
 * phase; the difference divided by the phase's orders is what an order cost. Nothing is subtracted but the
 * bench's own completion polls (one statement and one commit each); the idle background the window holds is
 * included, and measured on its own ({@link #idle}) so that a reader can judge it.
 */
final class CostMeter {

    /**
     * One reading. CPU in ticks, -1 for a process that was not found; pids to notice a restart in between;
     * commits -1 where not settled ({@link #settleAndTake} under {@code --quick}).
     */
    record Snapshot(long nanos, long[] pids, long[] ticks, long commits, long statements, Map<String, Long> queues,
                    Simulator.Stats simulator, Map<Long, ProcessCpu.ThreadTicks> serverThreads) {
    }

    /**
     * What a window cost, per order (or per second for the idle window): CPU-ms per process (NaN when a process
     * was restarted or not found), commits, statements, messages, the simulator's own time per call, and the
     * server's CPU-ms by thread group ({@link ServerThreads}; empty when not read).
     */
    record Costs(double windowSeconds, double divisor, double[] cpuMs, double commits, double statements,
                 double messages, long simulatorCalls, double simulatorMsPerCall,
                 Map<ServerThreads.Group, Double> serverThreadMs) {

        /** The server JVM's JIT compiler threads: the compilation still under way, not the orders' own work. */
        double serverJitMs() {
            return serverThreadMs(ServerThreads.Group.JIT);
        }

        double serverThreadMs(ServerThreads.Group group) {
            return serverThreadMs.getOrDefault(group, Double.NaN);
        }

        double cpuTotalMs() {
            double sum = 0;
            for (double v : cpuMs) {
                sum += v;
            }
            return sum;
        }

        String summary(String per) {
            return String.format(java.util.Locale.ROOT,
                    "per %s: CPU-ms server %.1f (%s), broker %.1f, PostgreSQL %.1f,"
                            + " simulator %.1f (total %.1f); commits %s, statements %.1f, messages %.2f; simulator's own"
                            + " time %.2f ms per call (%d calls); window %.0f s",
                    per, cpuMs[0], threadSummary(), cpuMs[1], cpuMs[2], cpuMs[3], cpuTotalMs(),
                    Double.isNaN(commits) ? "not counted (--quick)" : String.format(java.util.Locale.ROOT, "%.2f", commits),
                    statements, messages, simulatorMsPerCall, simulatorCalls, windowSeconds);
        }

        private String threadSummary() {
            if (serverThreadMs.isEmpty()) {
                return "threads not read";
            }
            StringBuilder s = new StringBuilder();
            serverThreadMs.forEach((g, ms) -> s.append(s.length() == 0 ? "" : ", ").append(g.key).append(' ')
                    .append(Report.f1(ms)));
            return s.toString();
        }
    }

    /** The processes, in the order of {@link Costs#cpuMs}. */
    static final String[] PROCESSES = {"server", "broker", "PostgreSQL", "simulator"};
    /**
     * PostgreSQL publishes a backend's counts when it goes idle, but no more often than once a second, and a
     * backend that flushed less than a second ago waits up to 10 s (PGSTAT_IDLE_INTERVAL): a reading taken
     * sooner after the last order misses that order's last commits. Statements need no wait: pg_stat_statements
     * counts each as it ends. {@code --quick} (CI's smoke run of the bench) does not wait, and leaves commits out.
     */
    static final long SETTLE_MILLIS = 11_000;

    private final BenchStack stack;
    private final String superuserUrl;
    private final String database;
    private final BrokerCounters broker;
    private final Simulator simulator;

    private final boolean settles;

    /** {@code settles}: wait for PostgreSQL's counts before each closing reading, and count commits. */
    CostMeter(BenchStack stack, BrokerCounters broker, Simulator simulator, boolean settles) {
        this.stack = stack;
        this.settles = settles;
        this.superuserUrl = stack.jdbcUrl("postgres");
        this.database = BenchStack.DB;
        this.broker = broker;
        this.simulator = simulator;
    }

    /** pg_stat_statements is preloaded by the launcher; the view needs its extension, created once. */
    void prepare() throws SQLException {
        try (Connection c = DriverManager.getConnection(superuserUrl, Db.SUPERUSER, ""); Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
    }

    Snapshot take() throws Exception {
        long[] pids = stack.costPids();
        long[] ticks = new long[pids.length];
        for (int i = 0; i < pids.length; i++) {
            ticks[i] = pids[i] < 0 ? -1 : i == 2 ? ProcessCpu.treeTicks(pids[i]) : ProcessCpu.ticks(pids[i], false);
        }
        long commits;
        long statements;
        // As the superuser, in the postgres database: these reads are not counted in the application's.
        try (Connection c = DriverManager.getConnection(superuserUrl, Db.SUPERUSER, "");
             PreparedStatement ps = c.prepareStatement("""
                     SELECT d.xact_commit, (SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s WHERE s.dbid = d.datid)
                     FROM pg_stat_database d WHERE d.datname = ?""")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                commits = rs.getLong(1);
                statements = rs.getLong(2);
            }
        }
        Map<Long, ProcessCpu.ThreadTicks> threads = pids[0] < 0 ? Map.of() : ProcessCpu.threadTicks(pids[0]);
        return new Snapshot(System.nanoTime(), pids, ticks, commits, statements, broker.messagesAdded(), simulator.stats(),
                threads);
    }

    /** Waits until PostgreSQL has published the counts of the work just finished, then reads. */
    Snapshot settleAndTake() throws Exception {
        if (!settles) {
            Snapshot now = take();
            return new Snapshot(now.nanos(), now.pids(), now.ticks(), -1, now.statements(), now.queues(), now.simulator(),
                    now.serverThreads());
        }
        Thread.sleep(SETTLE_MILLIS);
        return take();
    }

    /** The idle background: a window with no orders, per second. */
    static Costs perSecond(Snapshot a, Snapshot b) {
        return between(a, b, (b.nanos() - a.nanos()) / 1e9, 0);
    }

    /**
     * The window's costs divided by {@code divisor} (orders, or seconds for the idle window), minus the bench's
     * own {@code polls} (one statement and one commit each: the count of final orders).
     */
    static Costs between(Snapshot a, Snapshot b, double divisor, long polls) {
        double[] cpu = new double[a.ticks().length];
        for (int i = 0; i < cpu.length; i++) {
            boolean same = a.pids()[i] == b.pids()[i] && a.ticks()[i] >= 0 && b.ticks()[i] >= 0;
            cpu[i] = same ? ProcessCpu.millis(b.ticks()[i] - a.ticks()[i]) / divisor : Double.NaN;
        }
        double messages = a.queues().isEmpty() || b.queues().isEmpty() ? Double.NaN
                : BrokerCounters.added(a.queues(), b.queues()) / divisor;
        long calls = b.simulator().serviceCalls() - a.simulator().serviceCalls();
        double msPerCall = calls <= 0 ? Double.NaN : (b.simulator().serviceMs() - a.simulator().serviceMs()) / calls;
        Map<ServerThreads.Group, Double> threads = Double.isNaN(cpu[0]) || b.serverThreads().isEmpty() ? Map.of()
                : byGroup(a, b, cpu[0] * divisor, divisor);
        double commits = a.commits() < 0 || b.commits() < 0 ? Double.NaN : (b.commits() - a.commits() - polls) / divisor;
        return new Costs((b.nanos() - a.nanos()) / 1e9, divisor, cpu, commits,
                (b.statements() - a.statements() - polls) / divisor, messages, calls, msPerCall, threads);
    }

    /**
     * The server's CPU by thread group, per {@code divisor}. Other is the process's total less the six named
     * groups: besides the unnamed threads it holds the time of threads that ended within the window (a thread's
     * time leaves /proc/PID/task with it, not the process's), so the groups always add up to the server's figure.
     */
    private static Map<ServerThreads.Group, Double> byGroup(Snapshot a, Snapshot b, double serverMs, double divisor) {
        Map<ServerThreads.Group, Long> ticks = ServerThreads.ticksBetween(a.serverThreads(), b.serverThreads());
        Map<ServerThreads.Group, Double> ms = new java.util.EnumMap<>(ServerThreads.Group.class);
        double named = 0;
        for (ServerThreads.Group g : ServerThreads.Group.values()) {
            if (g != ServerThreads.Group.OTHER) {
                double v = ProcessCpu.millis(ticks.get(g));
                named += v;
                ms.put(g, v / divisor);
            }
        }
        ms.put(ServerThreads.Group.OTHER, Math.max(0, serverMs - named) / divisor);
        return ms;
    }
}
