package io.overseer.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What ./bench was asked to do. Sizes default to the full run; {@code --quick} shrinks them for CI, and any
 * size given beside it wins, wherever it stands on the command line. picocli reads the flags
 * ({@link BenchFlags}); this record holds what they come to, every value checked here, so a typo fails
 * before anything starts.
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
        boolean attributes,   // the REST three-step orders carry three business attributes
        boolean help) {       // --help: print the usage text, run nothing

    /** --help, as picocli renders {@link BenchFlags}; benchmarks/usage.txt holds it for ./bench without a build. */
    static String usage() {
        return new CommandLine(new BenchFlags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    static BenchOptions parse(String[] args, Path root) {
        return build(flags(args), root);
    }

    /** The command line as picocli reads it; a flag given twice takes its last value. */
    private static BenchFlags flags(String[] args) {
        BenchFlags f = new BenchFlags();
        CommandLine commandLine = new CommandLine(f).setExpandAtFiles(false).setOverwrittenOptionsAllowed(true);
        try {
            commandLine.parseArgs(args);
        } catch (CommandLine.MissingParameterException e) {
            throw new UsageException(e.getMissing().get(0) instanceof OptionSpec o
                    ? o.longestName() + " needs a value" : e.getMessage());
        } catch (CommandLine.UnmatchedArgumentException e) {
            List<String> suggestions = e.getSuggestions();
            throw new UsageException("unknown option: " + e.getUnmatched().get(0)
                    + (suggestions.isEmpty() ? "" : " (did you mean " + String.join(" or ", suggestions) + "?)"));
        } catch (CommandLine.ParameterException e) {
            throw new UsageException(e.getMessage());
        }
        return f;
    }

    /** What the flags come to: --quick's sizes where none is given, every value checked. */
    private static BenchOptions build(BenchFlags f, Path root) {
        boolean quick = f.quick;
        BenchRuntime runtime = runtime("--runtime", f.runtime);
        int portBase = port("--port-base", f.portBase);
        requirePlaceable(runtime, portBase);
        int bulkOrders = positive("--bulk-orders", f.bulkOrders, quick ? 1000 : 10_000);
        if (bulkOrders > 100_000) {
            throw new UsageException("--bulk-orders must be at most 100000 (the server refuses a larger job), got: "
                    + bulkOrders);
        }
        int bulkRate = positive("--bulk-rate", f.bulkRate, 0);
        if (bulkRate > 1000) {
            throw new UsageException("--bulk-rate must be 1-1000 (the server refuses more), got: " + bulkRate);
        }
        double bulkLoadRate = f.bulkLoadRate == null ? 0 : rate("--bulk-load-rate", f.bulkLoadRate);
        double tracing = f.tracingRatio != null ? ratio("--tracing-ratio", f.tracingRatio) : f.tracing ? 1.0 : 0;
        List<Integer> scale = f.scaleFinished != null ? list("--scale-finished", f.scaleFinished)
                : quick ? List.of(1000, 10_000) : List.of(10_000, 1_000_000);
        List<String> appProperties = new ArrayList<>();
        for (String p : f.appProperties) {
            appProperties.add(property("--app-property", p));
        }
        Path report = f.report != null ? f.report.toAbsolutePath()
                : root.resolve(quick ? "target/bench/quick-report.md" : "BENCHMARKS.md");
        return new BenchOptions(quick, runtime,
                positive("--orders", f.orders, quick ? 300 : 20_000),
                positive("--e2e-orders", f.e2eOrders, quick ? 150 : 1500),
                positive("--latency-seconds", f.latencySeconds, quick ? 10 : 60),
                positive("--lone-orders", f.loneOrders, quick ? 10 : 40),
                positive("--clients", f.clients),
                positive("--peer-tasks", f.peerTasks, quick ? 1000 : 20_000),
                positive("--peer-repeat", f.peerRepeat, quick ? 1 : 3),
                scale, portBase, f.jfr, f.withoutPeers, f.saveBaseline, f.title, report, root,
                List.copyOf(appProperties), jit("--server-jit", f.serverJit), tracing, f.bulkAsked(), bulkOrders,
                positive("--bulk-seconds", f.bulkSeconds, quick ? 20 : 60), bulkRate, bulkLoadRate, f.attributes,
                f.help);
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
     * The runs to make: this one, or under {@code --server-jit both} one with C1 and one tiered, built from the
     * same flags so that each keeps every other option.
     */
    static List<BenchOptions> jitRuns(String[] args, Path root) {
        BenchFlags f = flags(args);
        BenchOptions o = build(f, root);
        if (!o.serverJit().equals(BOTH_JITS)) {
            return List.of(o);
        }
        List<BenchOptions> runs = new ArrayList<>();
        for (String jit : List.of("c1", "tiered")) {
            f.serverJit = jit;
            runs.add(build(f, root));
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

    /** The value given, else the default (0: none, for an option that is left out when not given). */
    private static int positive(String flag, String v, int defaultValue) {
        return v == null ? defaultValue : positive(flag, v);
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

    /** A usage error: exit code 2, with the message and a pointer to --help. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }
}
