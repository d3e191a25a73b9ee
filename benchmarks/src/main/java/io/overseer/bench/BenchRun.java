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

    /** The figures that later runs compare with, by name. */
    Map<String, Double> figures() {
        Map<String, Double> f = new LinkedHashMap<>();
        phases.values().forEach(p -> {
            f.put(p.name() + ".ordersPerSecond", p.ordersPerSecond());
            f.put(p.name() + ".stepsPerSecond", p.stepsPerSecond());
            f.put(p.name() + ".submitPerSecond", p.load().perSecond());
            if (!p.latenciesMs().isEmpty()) {
                f.put(p.name() + ".p50Ms", p.p(50));
                f.put(p.name() + ".p95Ms", p.p(95));
                f.put(p.name() + ".p99Ms", p.p(99));
            }
            f.put(p.name() + ".maxRssMiB", p.maxRssMiB());
        });
        peers.results.forEach((name, n) -> f.put(name, n.path("value").asDouble()));
        return f;
    }
}
