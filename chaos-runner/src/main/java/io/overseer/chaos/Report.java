package io.overseer.chaos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.chaos.History.StoredOrder;
import io.overseer.chaos.History.Submission;
import io.overseer.chaos.Verdict.Rule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The figures of a run, as text for people and, last, as one JSON line for CI and scripts: orders, faults
 * by kind, submissions and outcomes, time to a final state, with --db-ha each failover's times, and every
 * violation under its rule.
 */
final class Report {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final int LISTED_PER_RULE = 20;

    private final ChaosOptions options;
    private final History history;
    private final Verdict verdict;
    private final List<InjectedFault> faults;
    private final List<DatabaseFaults.Failover> dbFailovers;
    private final long quietSeconds;

    Report(ChaosOptions options, History history, Verdict verdict, List<InjectedFault> faults,
           List<DatabaseFaults.Failover> dbFailovers, long quietSeconds) {
        this.options = options;
        this.history = history;
        this.verdict = verdict;
        this.faults = faults;
        this.dbFailovers = dbFailovers;
        this.quietSeconds = quietSeconds;
    }

    String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("chaos run, seed %d: %d orders planned at %.1f/s, %d instances, %s, %s, %s, faults %s%n",
                options.seed(), options.orders(), options.rate(), options.instances(),
                options.brokerHa() ? "replicated broker pair" : "one broker",
                options.dbHa() ? "replicated PostgreSQL (Patroni)" : "one PostgreSQL",
                options.partitions() ? "each on a host of its own" : "all on one loopback", options.faults()));
        out.append("submissions: ").append(submissions()).append('\n');
        out.append("faults injected by kind: ").append(faultsByKind(true))
                .append(faultsByKind(false).isEmpty() ? "" : "; NOT injected: " + faultsByKind(false)).append('\n');
        faults.forEach(f -> out.append("  ").append(f.planned().describe()).append(" — started at ")
                .append(String.format("%.1f s", f.startedMs() / 1000.0)).append(", ")
                .append(f.injected() ? "healed after " + f.healedAfterMs() + " ms" : "NOT INJECTED")
                .append(f.note().isEmpty() ? "" : " (" + f.note() + ")").append('\n'));
        List<InjectedFault> beside = faults.stream().filter(f -> f.injected() && f.planned().kind().runsBeside()).toList();
        if (!beside.isEmpty()) {
            out.append("link cuts held beside the schedule: ").append(beside.size()).append(", of which ")
                    .append(overlapping()).append(" while another fault struck\n");
        }
        List<String> toothless = faults.stream().filter(f -> f.note().startsWith("0 calls affected"))
                .map(f -> "#" + (f.planned().index() + 1) + " " + f.planned().kind()).toList();
        if (!toothless.isEmpty()) {
            out.append("simulator faults that affected no call (nothing called the operation then): ")
                    .append(toothless).append('\n');
        }
        if (options.dbHa()) {
            out.append("database failovers (db-failover, ms after the kill): ").append(dbFailovers.isEmpty() ? "none"
                    : dbFailovers.stream().map(f -> f.promoted() == null
                            ? f.killed() + " killed, NO failover, settled after " + f.inSyncMs()
                            : f.killed() + " killed, " + f.promoted() + " primary after " + f.failoverMs() + ", "
                                    + f.killed() + " in sync after " + f.inSyncMs()).collect(Collectors.joining("; ")))
                    .append('\n');
        }
        out.append("orders in PostgreSQL: ").append(history.orders().size()).append(", by state ").append(states()).append('\n');
        FinalTimes t = FinalTimes.of(history.orders().values());
        out.append(String.format("time to final state (created → last transition): p50 %.1f s, p99 %.1f s, max %.1f s"
                + " over %d final orders; every order had %d s after the last fault and submission%n",
                t.p50() / 1000.0, t.p99() / 1000.0, t.max() / 1000.0, t.count(), quietSeconds));
        out.append("alerts: ").append(history.alertedOrders().size()).append(" orders named; dead letters: ")
                .append(history.deadLetters().size()).append(" (malformed messages sent and accepted: ")
                .append(history.badMessagesSent().size()).append("); simulator effects: ").append(history.effects().size())
                .append(", appliedTwice ").append(history.appliedTwice()).append('\n');
        if (history.notifications() != null) {
            out.append("status notifications: ").append(history.notifications().values().stream().mapToInt(List::size).sum())
                    .append(" received about ").append(history.notifications().size()).append(" orders\n");
        }
        verdict.notChecked().forEach(n -> out.append("NOT CHECKED: ").append(n).append('\n'));
        out.append("violations: ").append(verdict.total()).append('\n');
        for (Rule rule : Rule.values()) {
            List<String> list = verdict.violations(rule);
            if (!list.isEmpty()) {
                out.append("  ").append(rule.jsonName()).append(" (").append(list.size()).append("):\n");
                list.stream().limit(LISTED_PER_RULE).forEach(v -> out.append("    ").append(v).append('\n'));
                if (list.size() > LISTED_PER_RULE) {
                    out.append("    … ").append(list.size() - LISTED_PER_RULE).append(" more in violations.txt\n");
                }
            }
        }
        return out.toString();
    }

    boolean clean() {
        return verdict.clean();
    }

    String allViolations() {
        StringBuilder out = new StringBuilder();
        for (Rule rule : Rule.values()) {
            verdict.violations(rule).forEach(v -> out.append(rule.jsonName()).append(": ").append(v).append('\n'));
        }
        return out.toString();
    }

    String jsonLine() {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("seed", options.seed());
        j.put("brokerHa", options.brokerHa());
        j.put("dbHa", options.dbHa());
        j.put("partitions", options.partitions());
        j.put("orders", history.orders().size());
        j.put("submitted", history.submissions().size());
        j.put("faults", faults.stream().filter(InjectedFault::injected).count());
        j.put("faultsByKind", faultsByKind(true));
        if (options.partitions()) {
            j.put("cutsOverlapping", overlapping());
        }
        j.put("outcomes", states());
        j.put("lost", verdict.count(Rule.LOST));
        j.put("duplicated", verdict.count(Rule.DUPLICATED));
        j.put("appliedTwice", verdict.count(Rule.APPLIED_TWICE));
        j.put("stuck", verdict.count(Rule.STUCK));
        for (Rule rule : Rule.values()) {
            j.putIfAbsent(rule.jsonName(), verdict.count(rule));
        }
        FinalTimes t = FinalTimes.of(history.orders().values());
        j.put("finalP50Ms", t.p50());
        j.put("finalP99Ms", t.p99());
        j.put("finalMaxMs", t.max());
        if (options.dbHa()) {
            j.put("dbFailovers", dbFailovers);
        }
        j.put("notChecked", verdict.notChecked());
        j.put("violations", verdict.total());
        try {
            return JSON.writeValueAsString(j);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, Long> submissions() {
        Map<String, Long> counts = new TreeMap<>(history.submissions().stream().collect(
                Collectors.groupingBy(s -> s.channel() + " " + s.outcome(), Collectors.counting())));
        counts.put("duplicates sent", history.submissions().stream().filter(Submission::duplicateSent).count());
        return counts;
    }

    /** Link cuts during which another fault struck (FaultInjector notes them "beside #…"). */
    private long overlapping() {
        return faults.stream().filter(f -> f.injected() && f.planned().kind().runsBeside())
                .filter(f -> f.note().contains("; beside #")).count();
    }

    private Map<String, Long> faultsByKind(boolean injected) {
        return faults.stream().filter(f -> f.injected() == injected).collect(Collectors.groupingBy(
                f -> f.planned().kind().wireName(), TreeMap::new, Collectors.counting()));
    }

    private Map<String, Long> states() {
        return history.orders().values().stream().collect(Collectors.groupingBy(StoredOrder::processState,
                TreeMap::new, Collectors.counting()));
    }

    /** Milliseconds from creation to the last task-level transition, over orders in a final state. */
    record FinalTimes(long p50, long p99, long max, int count) {

        static FinalTimes of(java.util.Collection<StoredOrder> orders) {
            List<Long> times = new ArrayList<>();
            for (StoredOrder o : orders) {
                if (Transitions.FINAL.contains(o.processState())) {
                    o.history().stream().filter(t -> t.step() == null).reduce((a, b) -> b).ifPresent(last ->
                            times.add(java.time.Duration.between(o.createdAt(), last.at()).toMillis()));
                }
            }
            times.sort(null);
            if (times.isEmpty()) {
                return new FinalTimes(0, 0, 0, 0);
            }
            return new FinalTimes(pct(times, 0.50), pct(times, 0.99), times.get(times.size() - 1), times.size());
        }

        private static long pct(List<Long> sorted, double p) {
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
        }
    }
}
