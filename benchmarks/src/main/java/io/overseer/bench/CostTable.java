package io.overseer.bench;

import java.util.List;

/**
 * The report's table "What an order cost, per phase": each measured phase's counts per order (CostMeter), the
 * server's CPU split by thread group (ServerThreads), and the idle background per second.
 */
final class CostTable {

    private final StringBuilder md = new StringBuilder();
    private final BenchRun run;

    private CostTable(BenchRun run) {
        this.run = run;
    }

    /** The table with its explanation, or nothing when no phase was counted. */
    static String render(BenchRun run) {
        return new CostTable(run).build();
    }

    /** Per order and phase: what the processes and PostgreSQL did (counted), next to how fast it went. */
    private String build() {
        if (run.phases.values().stream().allMatch(p -> p.costs() == null)) {
            return "";
        }
        line("What an order cost, per phase (counted; `BENCHMARKS.md` says how to read it):");
        line("");
        line("| phase | orders/s | CPU-ms server | of which JIT | server: request | MDB | courier | agent | GC | other"
                + " | broker | PostgreSQL | simulator | **CPU-ms total** | commits"
                + " | statements | messages | simulator's own ms per call | window |");
        line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (PhaseResult p : run.phases.values()) {
            if (p.costs() != null) {
                row(p.name() + (p.name().equals("bulk-during") ? " (per new order, the bulk job's work included)"
                        : " (per order)"), f1(p.ordersPerSecond()), p.costs());
            }
        }
        if (run.idle != null) {
            row("idle background (per second)", "0", run.idle);
        }
        line("");
        line("CPU: utime + stime from /proc/PID/stat of the server's JVM, the broker's JVM, the simulator's JVM and"
                + " PostgreSQL (the postmaster, its live backends and the exited ones it reaped), over the window: the"
                + " phase's first submission to " + CostMeter.SETTLE_MILLIS / 1000 + " s after its last order became final"
                + " (PostgreSQL publishes a backend's counts up to 10 s late). Commits: pg_stat_database.xact_commit;"
                + " statements: pg_stat_statements calls (top level) — both of the application's database, minus the"
                + " bench's own completion polls (one each, every 2 s). Messages: MessagesAdded of the broker's durable"
                + " queues (Jolokia). Nothing else is subtracted: the idle background over the window is in every"
                + " figure; the last row measures it alone, per second, so that rate × window ÷ orders is its share."
                + " Simulator: its own time per call, measured in its handler (GET /stats), over the same window."
                + " Of which JIT: the server JVM's JIT compiler threads (C1, C2) alone, from /proc/PID/task — the"
                + " compilation still under way, not the orders' own work (a lower bound: a compiler thread the JVM"
                + " ends takes its time with it). Server: request … other: the server's CPU by thread group, each"
                + " thread's utime + stime from /proc/PID/task/TID/stat, grouped by its name (comm): request the HTTP"
                + " threads, MDB the broker client's threads the MDBs are delivered on, courier overseer-courier-N,"
                + " agent the managed threads the agents call on, GC the collector's; other is the rest of the"
                + " server's figure (the VM thread, timers, pollers, and threads that ended within the window), so"
                + " that JIT + request + MDB + courier + agent + GC + other = the server's CPU-ms.");
        line("");
        return md.toString();
    }

    private void row(String label, String rate, CostMeter.Costs c) {
        double[] cpu = c.cpuMs();
        StringBuilder groups = new StringBuilder();
        for (ServerThreads.Group g : List.of(ServerThreads.Group.REQUEST, ServerThreads.Group.MDB,
                ServerThreads.Group.COURIER, ServerThreads.Group.AGENT, ServerThreads.Group.GC, ServerThreads.Group.OTHER)) {
            groups.append(f1(c.serverThreadMs(g))).append(" | ");
        }
        line("| " + label + " | " + rate + " | " + f1(cpu[0]) + " | " + f1(c.serverJitMs()) + " | " + groups + f1(cpu[1]) + " | "
                + f1(cpu[2]) + " | " + f1(cpu[3])
                + " | **" + f1(c.cpuTotalMs()) + "** | " + f2(c.commits()) + " | " + f1(c.statements()) + " | "
                + f2(c.messages()) + " | " + (c.simulatorCalls() > 0 ? f2(c.simulatorMsPerCall()) + " (" + c.simulatorCalls()
                + " calls)" : "no calls") + " | " + f0(c.windowSeconds()) + " s |");
    }

    private void line(String s) {
        md.append(s).append('\n');
    }

    private static String f0(double v) {
        return Report.f0(v);
    }

    private static String f1(double v) {
        return Report.f1(v);
    }

    private static String f2(double v) {
        return Report.f2(v);
    }
}
