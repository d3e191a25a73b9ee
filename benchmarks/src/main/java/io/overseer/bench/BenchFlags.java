package io.overseer.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * ./bench's command line as picocli reads it. A null means "not given": the default then depends on --quick
 * (or, for the bulk phase's sizes, asks for the phase), which {@link BenchOptions#parse} works out. Values
 * stay text here so that a bad one gets the bench's own message, naming the option and what it wants.
 */
@Command(name = "./bench", customSynopsis = {"./bench [--quick] [options]", ""}, usageHelpWidth = 110,
        sortOptions = false, description = {
            "Starts its own stack (embedded PostgreSQL, Artemis, simulator, an application server",
            "-Xmx512m) on loopback ports PORT-BASE..PORT-BASE+4 with a fresh data directory under",
            "target/bench/, measures, checks every order, stops everything, and writes a dated report.",
            "The exit code is 1 when a check or the stack failed, 2 on a usage error, 3 when a peer or",
            "ceiling program is missing or failed.",
            ""})
final class BenchFlags {

    @Option(names = "--quick", description = "short run for CI: small sizes, report to target/bench/quick-report.md")
    boolean quick;

    @Option(names = "--runtime", paramLabel = "R", description = "payara-micro|payara-server|wildfly: the server"
            + " (default payara-micro: the WAR; the other two run the EAR and open more ports around PORT-BASE:"
            + " payara-server PORT-BASE-43..+6, wildfly PORT-BASE-4552, +363, +1910)")
    String runtime = "payara-micro";

    @Option(names = "--orders", paramLabel = "N", description = "no-op backlog for the overhead figure"
            + " (default 20000; quick 300)")
    String orders;

    @Option(names = "--e2e-orders", paramLabel = "N", description = "three-step orders per end-to-end peak run,"
            + " REST and JMS (1500; quick 150)")
    String e2eOrders;

    @Option(names = "--latency-seconds", paramLabel = "S", description = "paced latency run length, REST and JMS"
            + " each (60; quick 10)")
    String latencySeconds;

    @Option(names = "--lone-orders", paramLabel = "N", description = "three-step orders one at a time (2/s) on the"
            + " idle stack, REST and JMS each, for the hop-by-hop latency of a lone order (40; quick 10)")
    String loneOrders;

    @Option(names = "--clients", paramLabel = "C", description = "concurrent REST clients / JMS producers (32)")
    String clients = "32";

    @Option(names = "--peer-tasks", paramLabel = "N", description = "tasks per peer run, db-scheduler and JobRunr"
            + " (20000; quick 1000)")
    String peerTasks;

    @Option(names = "--peer-repeat", paramLabel = "R", description = "repetitions per peer measurement, median"
            + " reported (3; quick 1)")
    String peerRepeat;

    @Option(names = "--scale-finished", paramLabel = "A,B", description = "finished orders for the state-store"
            + " scale probe (10000,1000000; quick 1000,10000)")
    String scaleFinished;

    @Option(names = "--port-base", paramLabel = "P", description = "first of the five ports (18380)")
    String portBase = "18380";

    @Option(names = "--jfr", description = "after the measured phases, two more end-to-end bursts (REST, JMS) under"
            + " a JFR recording of the server, top-20 methods (no reported figure carries it)")
    boolean jfr;

    @Option(names = "--without-peers", description = "run without the peers and ceilings (their columns say"
            + " \"not run\")")
    boolean withoutPeers;

    @Option(names = "--save-baseline", description = "also write the figures to benchmarks/results/baseline.json"
            + " (what later runs compare with)")
    boolean saveBaseline;

    @Option(names = "--server-jit", paramLabel = "J", description = "c1|tiered|both: the server JVM's JIT"
            + " compilers, passed to the launcher (default c1, the launcher's; tiered is the JVM's own C1-then-C2,"
            + " what a team's own server runs), named in the report. both: the whole run twice, C1 then tiered,"
            + " each on a fresh stack, two sections in the report")
    String serverJit = "c1";

    @Option(names = "--app-property", paramLabel = "K=V", description = "an application property for this run's"
            + " server (repeatable; the report names every one), e.g. overseer.submission.concurrency=8")
    List<String> appProperties = new ArrayList<>();

    @Option(names = "--tracing", description = "MicroProfile Telemetry on, every order traced (100 %%), exported to"
            + " Zipkin beside the stack (./run --tracing: ports PORT-BASE+5 and +6); the report says so. Without it"
            + " the servers' default: tracing off")
    boolean tracing;

    @Option(names = "--tracing-ratio", paramLabel = "R", description = "as --tracing, sampling the share R"
            + " (0 < R <= 1) of new traces (parentbased_traceidratio); wins over --tracing")
    String tracingRatio;

    @Option(names = "--bulk", description = "last, after the peers: what a bulk resubmit does to new orders."
            + " N orders of the single-charge workflow put into Error (the simulator's fatal fault on"
            + " charge-payment, then healed), then new three-step orders paced over REST for S seconds, alone (the"
            + " baseline) and while a bulk resubmit of the N runs: their p50/p95/p99 and the ratio, the job's"
            + " duration and actions/s, the server CPU per action. Opt-in: CI's --quick does not run it")
    boolean bulk;

    @Option(names = "--bulk-orders", paramLabel = "N", description = "orders the bulk job resubmits, at most 100000"
            + " (10000; quick 1000); implies --bulk")
    String bulkOrders;

    @Option(names = "--bulk-seconds", paramLabel = "S", description = "the paced window, baseline and during the"
            + " job each (60; quick 20); implies --bulk")
    String bulkSeconds;

    @Option(names = "--bulk-rate", paramLabel = "R", description = "the job's ratePerSecond, 1-1000; implies --bulk"
            + " (default: none sent, the server's overseer.bulk.rate, 50)")
    String bulkRate;

    @Option(names = "--bulk-load-rate", paramLabel = "R", description = "new orders per second in both windows"
            + " (default: the REST latency phase's, half the REST peak); implies --bulk")
    String bulkLoadRate;

    @Option(names = "--attributes", description = "every three-step order over REST (warm-up, lone, e2e, latency)"
            + " carries three business attributes, as the scale probe's orders do (region, channel, batch): what"
            + " they cost an order, submitted and settled")
    boolean attributes;

    @Option(names = "--title", paramLabel = "TEXT", description = "section title (default: \"Run <date> (<branch>"
            + " at <commit>)\")")
    String title;

    @Option(names = "--report", paramLabel = "FILE", description = "the section's file (default BENCHMARKS.md;"
            + " quick: target/bench/quick-report.md)")
    Path report;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    /** Whether any of the bulk phase's own options was given: each of them asks for the phase. */
    boolean bulkAsked() {
        return bulk || bulkOrders != null || bulkSeconds != null || bulkRate != null || bulkLoadRate != null;
    }
}
