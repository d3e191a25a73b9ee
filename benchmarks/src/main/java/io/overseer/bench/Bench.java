package io.overseer.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * ./bench: starts its own stack, measures Overseer's overhead (no-op backlog), end-to-end throughput and
 * latency over REST and JMS, runs the peers and ceilings on the same PostgreSQL and broker, with --bulk last
 * what a bulk resubmit does to new orders (BulkPhase), checks every order, stops the stack and writes the report. Exit 0 ok, 1 a check or the stack failed, 2 usage,
 * 3 a peer or ceiling program is missing or failed.
 *
 * <p>Long because it is the run's script, phase after phase in the order the report shows them; each phase's
 * work is in its own class (PhaseRunner, Peers, the ceilings, BulkPhase).
 */
public final class Bench {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm");
    private static final DateTimeFormatter HUMAN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final int IDLE_SECONDS = 20;

    /**
     * A three-step order over REST, with the scale probe's three business attributes under --attributes
     * (the same values for every order: what they cost, not how they spread).
     */
    private static Load.Submitter threeStep(RestOrders rest, String prefix, BenchOptions o) {
        return o.attributes() ? rest.submitter(prefix, null, java.util.Map.of("region", "eu-west", "channel", "web",
                "batch", "bench-" + prefix)) : rest.submitter(prefix, null);
    }

    /** Seconds the JDK's HTTP client keeps an idle connection (see main). */
    private static final String IDLE_CONNECTION_PROPERTY = "jdk.httpclient.keepalive.timeout";
    /** Lone orders per second: one every 500 ms, far apart from the next (a lone three-step order takes well under that). */
    static final double LONE_RATE = 2.0;
    /** Held (never closed) until the JVM exits: an unreachable channel would be closed and its lock released. */
    private static java.nio.channels.FileChannel lockFile;

    public static void main(String[] args) {
        // Before any HttpClient exists (the JDK reads it once). The server closes a connection idle for 30 s
        // (Payara's keep-alive timeout); the JDK 17 client keeps one for 1,200 s and may reuse it just as the
        // server's close arrives, and a POST then fails with "HTTP/1.1 header parser received no bytes" — seen
        // once in CI, in the first REST phase after the lone-order and JMS phases left the 32 clients'
        // connections idle. Dropping idle connections first, on the client's side, leaves no race.
        if (System.getProperty(IDLE_CONNECTION_PROPERTY) == null) {
            System.setProperty(IDLE_CONNECTION_PROPERTY, "10");
        }
        Path root = Path.of("").toAbsolutePath();
        List<BenchOptions> runs;
        try {
            runs = BenchOptions.jitRuns(args, root);
        } catch (BenchOptions.UsageException e) {
            System.err.println("bench: " + e.getMessage() + " (see ./bench --help)");
            System.exit(2);
            return;
        }
        if (runs.get(0).help()) {
            System.out.print(BenchOptions.usage());
            return;
        }
        List<String> missing = Peers.missingPrograms();
        if (!missing.isEmpty() && !runs.get(0).withoutPeers()) {
            System.err.println("bench: the peer and ceiling programs are missing, so no ratio can be computed: "
                    + String.join(", ", missing) + " (package io.overseer.bench.peers/ceilings/scale of the benchmarks"
                    + " module). Run with --without-peers to measure Overseer alone.");
            System.exit(3);
            return;
        }
        int code = 0;
        for (int i = 0; i < runs.size(); i++) {
            // --server-jit both: C1, then tiered, each a whole run on its own stack; the first failure's code wins.
            Bench bench = new Bench(runs.size() > 1 ? runs.get(i).serverJit() : null, i > 0);
            int one = bench.attempt(runs.get(i), List.of(args), missing);
            code = code != 0 ? code : one;
        }
        System.exit(code);
    }

    /** Under --server-jit both, which of the two runs this is (c1, tiered); null for a lone run. */
    private final String jitOfPair;
    /** The second of a pair appends its section to the quick report instead of replacing the first's. */
    private final boolean appendQuick;

    private Bench(String jitOfPair, boolean appendQuick) {
        this.jitOfPair = jitOfPair;
        this.appendQuick = appendQuick;
    }

    private int attempt(BenchOptions o, List<String> args, List<String> missing) {
        try {
            return run(o, args, missing);
        } catch (IllegalStateException e) {
            Log.info("FAILED: " + e.getMessage()); // a condition the message names in full
            return 1;
        } catch (Exception e) {
            Log.info("FAILED: " + e);
            e.printStackTrace();
            return 1;
        }
    }

    private int run(BenchOptions o, List<String> args, List<String> missingPeers) throws Exception {
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        long t0 = System.nanoTime();
        BenchRun run = new BenchRun();
        run.options = o;
        run.args = args;
        run.startedAt = HUMAN.format(started);
        run.machine = Machine.describe(o.root(), o.runtime());
        run.title = (o.title() != null ? o.title() : "Run " + run.startedAt + " (" + run.machine.git() + ")")
                + (jitOfPair == null ? "" : ", JIT " + jitOfPair + " (`--server-jit both`: C1, then tiered)");
        run.warmupOrders = o.quick() ? 20 : 2000; // as many as each peer gets (Peers: --warmup)

        Path benchDir = Files.createDirectories(o.root().resolve("target/bench"));
        // One ./bench per worktree: a second one would take the first one's leftovers for a dead run's.
        if (lockFile == null) { // the second run of a pair holds it already
            lockFile = java.nio.channels.FileChannel.open(benchDir.resolve("bench.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (lockFile.tryLock() == null) {
                throw new IllegalStateException("another ./bench is running in " + o.root() + " (target/bench/bench.lock)");
            }
        }
        BenchStack.stopLeftover(o.root());
        deleteOldRuns(benchDir);
        Path runDir = Files.createDirectories(benchDir.resolve("run-" + STAMP.format(started)));
        String plots = (o.quick() ? "target/bench/quick-results" : "benchmarks/results/" + STAMP.format(started))
                + (jitOfPair == null ? "" : "/jit-" + jitOfPair);
        Path plotDir = Files.createDirectories(o.root().resolve(plots));
        run.plotDirRelative = o.root().relativize(plotDir).toString();
        run.baseline = readBaseline(o.root().resolve("benchmarks/results/baseline.json"));

        BenchStack stack = new BenchStack(o, runDir);
        Thread hook = new Thread(stack::close, "bench-stop");
        Runtime.getRuntime().addShutdownHook(hook); // Ctrl-C, SIGTERM, or a failure below: the stack stops
        try {
            stack.start();
            run.stackStartSeconds = (System.nanoTime() - t0) / 1e9;
            run.serverReadyMillis = stack.serverReadyMillis();
            List<String> exposed = PortCheck.nonLoopbackListeners(Set.copyOf(stack.pids()));
            if (!exposed.isEmpty()) {
                throw new IllegalStateException("the stack listens beyond loopback: " + exposed);
            }
            measure(o, run, stack, runDir, plotDir, missingPeers);
        } finally {
            if (run.sampler != null) {
                run.sampler.close();
            }
            stack.close();
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        run.endedAt = HUMAN.format(ZonedDateTime.now(ZoneOffset.UTC));
        run.totalSeconds = (System.nanoTime() - t0) / 1e9;
        return write(o, run, plotDir);
    }

    private void measure(BenchOptions o, BenchRun run, BenchStack stack, Path runDir, Path plotDir,
                         List<String> missingPeers) throws Exception {
        Db db = new Db(stack.jdbcUrl(), BenchStack.DB, BenchStack.DB);
        run.postgresVersion = "PostgreSQL " + db.text("SHOW server_version");
        Simulator simulator = new Simulator(stack.simulatorUrl());
        run.sampler = new Sampler(stack.serverPid());
        String runId = Long.toString(System.currentTimeMillis(), 36);
        CostMeter costs = new CostMeter(stack, new BrokerCounters(o.consolePort(), "demo", "demo"), simulator, !o.quick());
        costs.prepare();
        PhaseRunner phases = new PhaseRunner(db, simulator, run.sampler, runDir, runId, costs,
                new AgentCalls(stack.baseUrl(), "demo", "demo"));
        RestOrders rest = new RestOrders(stack.baseUrl());

        warmUp(o, run, phases, rest);
        idleBackground(o, run, costs);
        loneOrders(o, run, phases, rest);
        overheadPeakAndLatency(o, run, phases, rest);
        if (o.jfr()) {
            run.jfrTop = profiled(o, run, stack, runDir, phases, rest);
        }
        Map<String, List<Double>> lat = new LinkedHashMap<>();
        lat.put("REST", run.phases.get("latency-rest").latenciesMs());
        lat.put("JMS", run.phases.get("latency-jms").latenciesMs());
        Plots.latency(lat, "Submit -> Processed at half the peak rate (three-step order)", plotDir.resolve("latency.png"));
        keepPlots(run, runDir, plotDir, List.of("overhead", "e2e-rest", "e2e-jms", "latency-rest", "latency-jms"));
        run.plots.add("latency.png");
        peers(o, run, stack, runDir, missingPeers);

        // Last, opt-in: what a bulk resubmit does to new orders (BulkPhase). After the peers, so that it changes
        // none of the figures a run without --bulk has (10,000 more orders in the state store, a busier server).
        if (o.bulk()) {
            double loadRate = o.bulkLoadRate() > 0 ? o.bulkLoadRate() : run.phases.get("latency-rest").offeredRate();
            BulkPhase bulk = new BulkPhase(o, db, simulator, phases, rest, costs, stack.baseUrl(), runId);
            run.bulk = bulk.run(run.sampler, loadRate, run.idle, run.problems);
            run.phases.put("bulk-baseline", run.bulk.baseline());
            run.phases.put("bulk-during", run.bulk.during());
            keepPlots(run, runDir, plotDir, List.of("bulk-baseline", "bulk-during"));
        }
    }

    /**
     * Warm-up: JIT, pools and caches, so the first measured phase is not the first work the server does.
     * As large as the peers' (2,000 tasks): a cold Payara Micro ran the same REST burst at half the rate it
     * reached once warm (48 → 102 three-step orders/s, three bursts of 3,000 in a row).
     */
    private static void warmUp(BenchOptions o, BenchRun run, PhaseRunner phases, RestOrders rest) throws Exception {
        int c = o.clients();
        List<String> warm = phases.run("warmup-order", "warm-up", PhaseRunner.Kind.PEAK, run.warmupOrders, c, 0, 3, 3,
                true, p -> threeStep(rest, p, o)).problems();
        run.problems.addAll(warm);
        try (JmsOrders jms = new JmsOrders("127.0.0.1", o.brokerPort())) {
            run.problems.addAll(phases.run("warmup-jms", "warm-up", PhaseRunner.Kind.PEAK, run.warmupOrders, c, 0, 3, 3,
                    false, jms::submitter).problems());
        }
        run.problems.addAll(phases.run("warmup-noop", "warm-up", PhaseRunner.Kind.OVERHEAD, run.warmupOrders, c, 0, 1, 0,
                true, p -> rest.submitter(p, "noop")).problems());
    }

    /** The idle background, measured so that each phase's counts (which include it) can be judged. */
    private static void idleBackground(BenchOptions o, BenchRun run, CostMeter costs) throws Exception {
        int idleSeconds = o.quick() ? IDLE_SECONDS / 2 : IDLE_SECONDS;
        Log.info("idle background: " + idleSeconds + " s with no orders");
        CostMeter.Snapshot idleStart = costs.settleAndTake();
        Thread.sleep(idleSeconds * 1000L);
        run.idle = CostMeter.perSecond(idleStart, costs.take());
        Log.info("idle background " + run.idle.summary("second"));
    }

    /**
     * One order at a time on the warm, idle stack: what a lone order waits for, hop by hop (Report's hop
     * table). Nothing should batch it or hold it for a timer: each goes alone, 1/LONE_RATE s after the last.
     */
    private static void loneOrders(BenchOptions o, BenchRun run, PhaseRunner phases, RestOrders rest) throws Exception {
        add(run, phases.run("lone-rest", "One at a time, REST: " + o.loneOrders() + " three-step orders",
                PhaseRunner.Kind.LATENCY, o.loneOrders(), 1, LONE_RATE, 3, 3, true, p -> threeStep(rest, p, o)));
        try (JmsOrders jms = new JmsOrders("127.0.0.1", o.brokerPort())) {
            add(run, phases.run("lone-jms", "One at a time, JMS: " + o.loneOrders() + " three-step orders",
                    PhaseRunner.Kind.LATENCY, o.loneOrders(), 1, LONE_RATE, 3, 3, false, jms::submitter));
        }
    }

    /** The compared phases: the no-op backlog, then each protocol's peak and its latency paced at half of it. */
    private static void overheadPeakAndLatency(BenchOptions o, BenchRun run, PhaseRunner phases, RestOrders rest)
            throws Exception {
        int c = o.clients();
        add(run, phases.run("overhead", "Overhead: " + o.noopOrders() + " no-op single-step orders over REST",
                PhaseRunner.Kind.OVERHEAD, o.noopOrders(), c, 0, 1, 0, true, p -> rest.submitter(p, "noop")));

        PhaseResult peakRest = add(run, phases.run("e2e-rest", "End to end, REST: " + o.e2eOrders() + " three-step orders",
                PhaseRunner.Kind.PEAK, o.e2eOrders(), c, 0, 3, 3, true, p -> threeStep(rest, p, o)));
        PhaseResult peakJms;
        try (JmsOrders jms = new JmsOrders("127.0.0.1", o.brokerPort())) {
            peakJms = add(run, phases.run("e2e-jms", "End to end, JMS: " + o.e2eOrders() + " three-step orders",
                    PhaseRunner.Kind.PEAK, o.e2eOrders(), c, 0, 3, 3, false, jms::submitter));
            double restRate = peakRest.ordersPerSecond() / 2;
            add(run, phases.run("latency-rest", "Latency, REST, paced at half the peak", PhaseRunner.Kind.LATENCY,
                    paced(restRate, o.latencySeconds()), c, restRate, 3, 3, true, p -> threeStep(rest, p, o)));
            double jmsRate = peakJms.ordersPerSecond() / 2;
            add(run, phases.run("latency-jms", "Latency, JMS, paced at half the peak", PhaseRunner.Kind.LATENCY,
                    paced(jmsRate, o.latencySeconds()), c, jmsRate, 3, 3, false, jms::submitter));
        }
    }

    /** The peers and ceilings on the same PostgreSQL and broker, or why not (--without-peers, a missing program). */
    private static void peers(BenchOptions o, BenchRun run, BenchStack stack, Path runDir, List<String> missingPeers)
            throws Exception {
        run.sampler.phase("peers");
        if (o.withoutPeers()) {
            Peers.PROGRAMS.forEach(p -> run.peers.notRun(p.substring(p.lastIndexOf('.') + 1),
                    missingPeers.contains(p) ? "missing: " + p + " does not exist yet" : "--without-peers"));
        } else {
            Db.createPeersDatabase(stack.jdbcUrl("postgres"));
            for (Peers.Job job : Peers.jobs(o, stack, "demo", "demo")) {
                run.peers.run(job, runDir);
            }
        }
        run.sampler.phase("idle");
    }

    /** Moves the phases' throughput plots from the run's data directory (deleted by the next run) to the report's. */
    private static void keepPlots(BenchRun run, Path runDir, Path plotDir, List<String> phases) throws Exception {
        for (String phase : phases) {
            Files.move(runDir.resolve(phase + "-throughput.png"), plotDir.resolve(phase + "-throughput.png"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            run.plots.add(phase + "-throughput.png");
        }
    }

    /**
     * --jfr: two more end-to-end bursts, REST then JMS, as large as the measured ones, under a JFR recording;
     * checked, not reported. After the compared phases, so that no reported figure carries the recording's cost
     * (it ran during e2e-rest and e2e-jms before, and weighed on the one against the other).
     */
    private static List<JfrProfile.Hot> profiled(BenchOptions o, BenchRun run, BenchStack stack, Path runDir,
                                                 PhaseRunner phases, RestOrders rest) throws Exception {
        JfrProfile jfr = new JfrProfile(stack.serverPid(), runDir.resolve("server-e2e.jfr"));
        jfr.start();
        try (JmsOrders jms = new JmsOrders("127.0.0.1", o.brokerPort())) {
            run.problems.addAll(phases.run("jfr-rest", "profiled (JFR), REST", PhaseRunner.Kind.PEAK, o.e2eOrders(),
                    o.clients(), 0, 3, 3, true, p -> threeStep(rest, p, o)).problems());
            run.problems.addAll(phases.run("jfr-jms", "profiled (JFR), JMS", PhaseRunner.Kind.PEAK, o.e2eOrders(),
                    o.clients(), 0, 3, 3, false, jms::submitter).problems());
        } finally {
            jfr.stop();
        }
        return jfr.top(20);
    }

    private static int paced(double rate, int seconds) {
        return Math.max(10, (int) Math.round(rate * seconds));
    }

    private static PhaseResult add(BenchRun run, PhaseResult r) {
        run.phases.put(r.name(), r);
        run.problems.addAll(r.problems());
        return r;
    }

    private int write(BenchOptions o, BenchRun run, Path plotDir) throws Exception {
        String section = Report.render(run);
        System.out.println(section);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("title", run.title);
        json.put("started", run.startedAt);
        json.put("machine", run.machine);
        json.put("figures", run.figures());
        json.put("peerFailures", run.peers.failures);
        json.put("problems", run.problems);
        JSON.writeValue(plotDir.resolve("results.json").toFile(), json);
        if (!run.problems.isEmpty()) {
            Path failed = o.root().resolve("target/bench/failed-report.md");
            writeReport(failed, section, true);
            Log.info("FAILED: " + run.problems.size() + " problems; report in " + failed + " (not in " + o.report() + ")");
            return 1;
        }
        if (o.saveBaseline()) {
            JSON.writeValue(o.root().resolve("benchmarks/results/baseline.json").toFile(), json);
        }
        boolean replace = o.quick() && !appendQuick;
        writeReport(o.report(), replace ? section : "\n" + section, replace);
        Log.info("report written to " + o.report() + ", plots and results.json in " + plotDir);
        if (!run.peers.failures.isEmpty() && !o.withoutPeers()) {
            Log.info("peers or ceilings not measured: " + run.peers.failures);
            return 3;
        }
        return 0;
    }

    /**
     * Writes the section to {@code report}, replacing it ({@code replace}) or appending to it, creating the file and
     * its directories when missing: a --report naming a new file must not fail after the whole run (it did, with
     * NoSuchFileException, on 2026-11-27).
     */
    static void writeReport(Path report, String section, boolean replace) throws java.io.IOException {
        Path parent = report.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(report, section, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                replace ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
    }

    private static Map<String, Double> readBaseline(Path file) throws Exception {
        if (!Files.exists(file)) {
            return Map.of();
        }
        Map<String, Double> out = new LinkedHashMap<>();
        JSON.readTree(file.toFile()).path("figures").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asDouble()));
        return out;
    }

    /** Data directories of earlier runs (each holds a PostgreSQL cluster and a broker journal). */
    private static void deleteOldRuns(Path benchDir) throws Exception {
        try (Stream<Path> dirs = Files.list(benchDir)) {
            for (Path d : dirs.filter(p -> p.getFileName().toString().startsWith("run-")).toList()) {
                try (Stream<Path> walk = Files.walk(d)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }
}
