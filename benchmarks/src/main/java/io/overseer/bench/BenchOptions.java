package io.overseer.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What ./bench was asked to do. Sizes default to the full run; {@code --quick} shrinks them for CI. Every
 * option is validated here, so a typo fails before anything starts.
 */
record BenchOptions(
        boolean quick,
        BenchRuntime runtime,
        int noopOrders,
        int e2eOrders,
        int latencySeconds,
        int loneOrders,
        int clients,
        int peerTasks,
        int peerRepeat,
        List<Integer> scaleFinished,
        int portBase,
        boolean jfr,
        boolean withoutPeers,
        boolean saveBaseline,
        String title,
        Path report,
        Path root,
        List<String> appProperties,
        String serverJit,
        double tracing, // 0: off (the default, as on any server); else on, sampling this share of new traces
        boolean bulk,         // the bulk phase (opt-in: not part of CI's quick run)
        int bulkOrders,       // orders put into Error, then bulk-resubmitted
        int bulkSeconds,      // paced new orders' window, baseline and during the job each
        int bulkRate,         // the job's ratePerSecond; 0: not sent (the server's overseer.bulk.rate)
        double bulkLoadRate,  // new orders/s during both windows; 0: the REST latency phase's (half the REST peak)
        boolean attributes) { // the REST three-step orders carry three business attributes

    static final String USAGE = """
            Usage: ./bench [--quick] [options]

            Starts its own stack (embedded PostgreSQL, Artemis, simulator, an application server
            -Xmx512m) on loopback ports PORT-BASE..PORT-BASE+4 with a fresh data directory under
            target/bench/, measures, checks every order, stops everything, and writes a dated report.

              --quick                 short run for CI: small sizes, report to target/bench/quick-report.md
              --runtime R             payara-micro|payara-server|wildfly: the server (default payara-micro: the
                                      WAR; the other two run the EAR and open more ports around PORT-BASE:
                                      payara-server PORT-BASE-43..+6, wildfly PORT-BASE-4552, +363, +1910)
              --orders N              no-op backlog for the overhead figure (default 20000; quick 300)
              --e2e-orders N          three-step orders per end-to-end peak run, REST and JMS (1500; quick 150)
              --latency-seconds S     paced latency run length, REST and JMS each (60; quick 10)
              --lone-orders N         three-step orders one at a time (2/s) on the idle stack, REST and JMS each,
                                      for the hop-by-hop latency of a lone order (40; quick 10)
              --clients C             concurrent REST clients / JMS producers (32)
              --peer-tasks N          tasks per peer run, db-scheduler and JobRunr (20000; quick 1000)
              --peer-repeat R         repetitions per peer measurement, median reported (3; quick 1)
              --scale-finished A,B    finished orders for the state-store scale probe (10000,1000000; quick 1000,10000)
              --port-base P           first of the five ports (18380)
              --jfr                   after the measured phases, two more end-to-end bursts (REST, JMS) under a JFR
                                      recording of the server, top-20 methods (no reported figure carries it)
              --without-peers         run without the peers and ceilings (their columns say "not run")
              --save-baseline         also write the figures to benchmarks/results/baseline.json (what later runs compare with)
              --server-jit J          c1|tiered|both: the server JVM's JIT compilers, passed to the launcher (default
                                      c1, the launcher's; tiered is the JVM's own C1-then-C2, what a team's own
                                      server runs), named in the report. both: the whole run twice, C1 then
                                      tiered, each on a fresh stack, two sections in the report
              --app-property K=V      an application property for this run's server (repeatable), e.g.
                                      overseer.submission.concurrency=8; the report names every one
              --tracing               MicroProfile Telemetry on, every order traced (100 %), exported to Zipkin
                                      beside the stack (./run --tracing: ports PORT-BASE+5 and +6); the report
                                      says so. Without it the servers' default: tracing off
              --tracing-ratio R       as --tracing, sampling the share R (0 < R <= 1) of new traces
                                      (parentbased_traceidratio)
              --bulk                  last, after the peers: what a bulk resubmit does to new orders. N orders of
                                      the single-charge workflow put into Error (the simulator's fatal fault on
                                      charge-payment, then healed), then new three-step orders paced over REST
                                      for S seconds, alone (the baseline) and while a bulk resubmit of the N
                                      runs: their p50/p95/p99 and the ratio, the job's duration and actions/s,
                                      the server CPU per action. Opt-in: CI's --quick does not run it
              --bulk-orders N         orders the bulk job resubmits, at most 100000 (10000; quick 1000); implies --bulk
              --bulk-seconds S        the paced window, baseline and during the job each (60; quick 20); implies --bulk
              --bulk-rate R           the job's ratePerSecond, 1-1000 (default: none sent, the server's
                                      overseer.bulk.rate, 50); implies --bulk
              --bulk-load-rate R      new orders per second in both windows (default: the REST latency phase's,
                                      half the REST peak); implies --bulk
              --attributes            every three-step order over REST (warm-up, lone, e2e, latency) carries three
                                      business attributes, as the scale probe's orders do (region, channel,
                                      batch): what they cost an order, submitted and settled
              --title TEXT            section title (default: "Run <date> (<branch> at <commit>)")
              --report FILE           where the section goes (default BENCHMARKS.md; quick: target/bench/quick-report.md)
              --help                  this text
            """;

    static BenchOptions parse(String[] args, Path root) {
        boolean quick = List.of(args).contains("--quick");
        BenchRuntime runtime = BenchRuntime.PAYARA_MICRO;
        int noop = quick ? 300 : 20_000;
        int e2e = quick ? 150 : 1500;
        int latency = quick ? 10 : 60;
        int lone = quick ? 10 : 40;
        int clients = 32;
        int peerTasks = quick ? 1000 : 20_000;
        int peerRepeat = quick ? 1 : 3;
        List<Integer> scale = quick ? List.of(1000, 10_000) : List.of(10_000, 1_000_000);
        int portBase = 18380;
        boolean jfr = false;
        boolean withoutPeers = false;
        boolean saveBaseline = false;
        String title = null;
        Path report = null;
        List<String> appProperties = new ArrayList<>();
        String serverJit = "c1";
        double tracing = 0;
        boolean bulk = false;
        int bulkOrders = quick ? 1000 : 10_000;
        int bulkSeconds = quick ? 20 : 60;
        int bulkRate = 0;
        double bulkLoadRate = 0;
        boolean attributes = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> { }
                case "--runtime" -> runtime = runtime(a, value(args, ++i, a));
                case "--jfr" -> jfr = true;
                case "--without-peers" -> withoutPeers = true;
                case "--save-baseline" -> saveBaseline = true;
                case "--orders" -> noop = positive(a, value(args, ++i, a));
                case "--e2e-orders" -> e2e = positive(a, value(args, ++i, a));
                case "--latency-seconds" -> latency = positive(a, value(args, ++i, a));
                case "--lone-orders" -> lone = positive(a, value(args, ++i, a));
                case "--clients" -> clients = positive(a, value(args, ++i, a));
                case "--peer-tasks" -> peerTasks = positive(a, value(args, ++i, a));
                case "--peer-repeat" -> peerRepeat = positive(a, value(args, ++i, a));
                case "--scale-finished" -> scale = list(a, value(args, ++i, a));
                case "--port-base" -> portBase = port(a, value(args, ++i, a));
                case "--title" -> title = value(args, ++i, a);
                case "--app-property" -> appProperties.add(property(a, value(args, ++i, a)));
                case "--server-jit" -> serverJit = jit(a, value(args, ++i, a));
                case "--tracing" -> tracing = 1.0;
                case "--tracing-ratio" -> tracing = ratio(a, value(args, ++i, a));
                case "--bulk" -> bulk = true;
                case "--attributes" -> attributes = true;
                case "--bulk-orders" -> {
                    bulkOrders = positive(a, value(args, ++i, a));
                    if (bulkOrders > 100_000) {
                        throw new UsageException(a + " must be at most 100000 (the server refuses a larger job), got: " + bulkOrders);
                    }
                    bulk = true;
                }
                case "--bulk-seconds" -> {
                    bulkSeconds = positive(a, value(args, ++i, a));
                    bulk = true;
                }
                case "--bulk-rate" -> {
                    bulkRate = positive(a, value(args, ++i, a));
                    if (bulkRate > 1000) {
                        throw new UsageException(a + " must be 1-1000 (the server refuses more), got: " + bulkRate);
                    }
                    bulk = true;
                }
                case "--bulk-load-rate" -> {
                    bulkLoadRate = rate(a, value(args, ++i, a));
                    bulk = true;
                }
                case "--report" -> report = Path.of(value(args, ++i, a)).toAbsolutePath();
                default -> throw new UsageException("unknown option: " + a);
            }
        }
        if (report == null) {
            report = quick ? root.resolve("target/bench/quick-report.md") : root.resolve("BENCHMARKS.md");
        }
        requirePlaceable(runtime, portBase);
        return new BenchOptions(quick, runtime, noop, e2e, latency, lone, clients, peerTasks, peerRepeat, scale, portBase, jfr,
                withoutPeers, saveBaseline, title, report, root, List.copyOf(appProperties), serverJit, tracing,
                bulk, bulkOrders, bulkSeconds, bulkRate, bulkLoadRate, attributes);
    }

    /** A share of traces to sample: more than 0, at most 1. */
    private static double ratio(String option, String value) {
        try {
            double r = Double.parseDouble(value.trim());
            if (r > 0 && r <= 1) {
                return r;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new UsageException(option + " wants a share of traces, 0 < R <= 1, not: " + value);
    }

    /** Orders per second: more than 0. */
    private static double rate(String option, String value) {
        try {
            double r = Double.parseDouble(value.trim());
            if (r > 0 && Double.isFinite(r)) {
                return r;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new UsageException(option + " wants orders per second, more than 0, not: " + value);
    }

    boolean traced() {
        return tracing > 0;
    }

    /** Zipkin's port under --tracing. */
    int zipkinPort() {
        return portBase + 5;
    }

    /** The OTLP relay's port under --tracing. */
    int otlpPort() {
        return portBase + 6;
    }

    /**
     * c1 or tiered, as the launcher's --server-jit takes them, or both (the bench runs twice, {@link #jitRuns});
     * anything else fails before the start.
     */
    private static String jit(String option, String value) {
        if (!value.equals("c1") && !value.equals("tiered") && !value.equals(BOTH_JITS)) {
            throw new UsageException(option + " must be c1, tiered or both, not: " + value);
        }
        return value;
    }

    static final String BOTH_JITS = "both";

    /**
     * The runs to make: this one, or under {@code --server-jit both} one with C1 and one tiered, parsed again from
     * the same arguments so that each keeps every other option.
     */
    static List<BenchOptions> jitRuns(String[] args, Path root) {
        BenchOptions o = parse(args, root);
        if (!o.serverJit().equals(BOTH_JITS)) {
            return List.of(o);
        }
        List<BenchOptions> runs = new ArrayList<>();
        for (String jit : List.of("c1", "tiered")) {
            String[] one = args.clone();
            for (int i = 0; i + 1 < one.length; i++) {
                if (one[i].equals("--server-jit")) {
                    one[i + 1] = jit;
                }
            }
            runs.add(parse(one, root));
        }
        return runs;
    }

    /** K=V with an application property's name (overseer.…): anything else would not reach the application. */
    private static String property(String option, String value) {
        if (!value.matches("overseer\\.[a-z0-9.-]+=.*")) {
            throw new UsageException(option + " wants overseer.NAME=VALUE, not: " + value);
        }
        return value;
    }

    int httpPort() {
        return portBase;
    }

    int simulatorPort() {
        return portBase + 1;
    }

    int brokerPort() {
        return portBase + 2;
    }

    int consolePort() {
        return portBase + 3;
    }

    int dbPort() {
        return portBase + 4;
    }

    List<Integer> ports() {
        return List.of(httpPort(), simulatorPort(), brokerPort(), consolePort(), dbPort());
    }

    /** The five ports and the ones the runtime opens besides HTTP: all must be free before the start. */
    List<Integer> allPorts() {
        List<Integer> all = new ArrayList<>(ports());
        all.addAll(runtime.extraPorts(httpPort()).values());
        if (traced()) {
            all.addAll(List.of(zipkinPort(), otlpPort()));
        }
        return all;
    }

    /**
     * The runtime's extra ports (placed from the HTTP port, as the launcher places them) must be real ports
     * and none of the bench's own five: otherwise the launcher refuses, or two servers fight over a port.
     */
    private static void requirePlaceable(BenchRuntime runtime, int portBase) {
        List<Integer> own = List.of(portBase, portBase + 1, portBase + 2, portBase + 3, portBase + 4);
        runtime.extraPorts(portBase).forEach((what, p) -> {
            if (p < 1024 || p > 65535) {
                throw new UsageException("--runtime " + runtime.id() + " with --port-base " + portBase + " puts its "
                        + what + " port on " + p + ", outside 1024-65535: choose another --port-base");
            }
            if (own.contains(p)) {
                throw new UsageException("--runtime " + runtime.id() + " with --port-base " + portBase + " puts its "
                        + what + " port on " + p + ", one of the bench's five ports: choose another --port-base");
            }
        });
    }

    private static BenchRuntime runtime(String flag, String v) {
        BenchRuntime r = BenchRuntime.byId(v);
        if (r == null) {
            throw new UsageException(flag + " must be one of " + BenchRuntime.ids() + ", got: " + v);
        }
        return r;
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new UsageException(flag + " needs a value");
        }
        return args[i];
    }

    private static int positive(String flag, String v) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException(flag + " must be a positive integer, got: " + v);
    }

    private static int port(String flag, String v) {
        int p = positive(flag, v);
        if (p < 1024 || p > 65530) {
            throw new UsageException(flag + " must be 1024-65530 (five ports from it are used), got: " + v);
        }
        return p;
    }

    private static List<Integer> list(String flag, String v) {
        List<Integer> out = new ArrayList<>();
        for (String part : v.split(",")) {
            out.add(positive(flag, part));
        }
        if (out.size() != 2) {
            throw new UsageException(flag + " takes two sizes, small,large (e.g. 10000,1000000), got: " + v);
        }
        return List.copyOf(out);
    }

    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }
}
