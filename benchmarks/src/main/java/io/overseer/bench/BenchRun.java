package io.overseer.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one run measured and found, for the report and results.json. */
final class BenchRun {
    BenchOptions options;
    List<String> args;
    String title;
    Machine machine;
    String startedAt;
    String endedAt;
    double totalSeconds;
    double stackStartSeconds;
    long serverReadyMillis = -1;
    String postgresVersion = "PostgreSQL (unknown)";
    Sampler sampler;
    int warmupOrders;
    final Map<String, PhaseResult> phases = new LinkedHashMap<>();
    final Peers peers = new Peers();
    List<JfrProfile.Hot> jfrTop = List.of();
    final List<String> problems = new ArrayList<>();
    Map<String, Double> baseline = Map.of();
    final List<String> plots = new ArrayList<>();
    String plotDirRelative;
    /** The idle background per second (no orders), measured after the warm-up; null if not measured. */
    CostMeter.Costs idle;
    /** --bulk's figures; null if it did not run. */
    BulkPhase.Result bulk;

    /** The figures that later runs compare with, by name. */
    Map<String, Double> figures() {
        Map<String, Double> f = new LinkedHashMap<>();
        phases.values().forEach(p -> {
            f.put(p.name() + ".ordersPerSecond", p.ordersPerSecond());
            f.put(p.name() + ".stepsPerSecond", p.stepsPerSecond());
            f.put(p.name() + ".submitPerSecond", p.load().perSecond());
            if (!Double.isNaN(p.drainPerSecond())) {
                f.put(p.name() + ".drainPerSecond", p.drainPerSecond());
                f.put(p.name() + ".drainOrders", (double) p.drainOrders());
            }
            if (!p.latenciesMs().isEmpty()) {
                f.put(p.name() + ".p50Ms", p.p(50));
                f.put(p.name() + ".p95Ms", p.p(95));
                f.put(p.name() + ".p99Ms", p.p(99));
            }
            f.put(p.name() + ".maxRssMiB", p.maxRssMiB());
            if (p.costs() != null) {
                f.put(p.name() + ".cpuMsPerOrder", p.costs().cpuTotalMs());
                f.put(p.name() + ".cpuMsPerOrder.serverJit", p.costs().serverJitMs());
                p.costs().serverThreadMs().forEach((group, ms) ->
                        f.put(p.name() + ".cpuMsPerOrder.server." + group.key, ms));
                for (int i = 0; i < CostMeter.PROCESSES.length; i++) {
                    f.put(p.name() + ".cpuMsPerOrder." + CostMeter.PROCESSES[i], p.costs().cpuMs()[i]);
                }
                f.put(p.name() + ".commitsPerOrder", p.costs().commits());
                f.put(p.name() + ".statementsPerOrder", p.costs().statements());
                f.put(p.name() + ".messagesPerOrder", p.costs().messages());
                f.put(p.name() + ".simulatorMsPerCall", p.costs().simulatorMsPerCall());
            }
        });
        if (bulk != null) {
            f.put("bulk.orders", (double) bulk.orders());
            f.put("bulk.jobRate", (double) bulk.jobRate());
            f.put("bulk.loadRate", bulk.loadRate());
            f.put("bulk.jobSeconds", bulk.jobSeconds());
            f.put("bulk.actionsPerSecond", bulk.actionsPerSecond());
            f.put("bulk.lastProcessedSeconds", bulk.lastProcessedSeconds());
            f.put("bulk.maxUnfinished", (double) bulk.maxUnfinished());
            f.put("bulk.p50Ratio", bulk.ratio(50));
            f.put("bulk.p95Ratio", bulk.ratio(95));
            f.put("bulk.p99Ratio", bulk.ratio(99));
            f.put("bulk.serverCpuMsPerAction", bulk.serverCpuMsPerAction());
            f.put("bulk.serverCpuMsPerActionNet", bulk.serverCpuMsPerActionNet());
            f.put("bulk.cpuMsPerActionNet", bulk.cpuMsPerActionNet());
        }
        peers.results.forEach((name, n) -> f.put(name, n.path("value").asDouble()));
        if (!Double.isNaN(peers.loginShare())) {
            f.put("ceiling.container.loginShare", peers.loginShare());
        }
        return f;
    }
}
