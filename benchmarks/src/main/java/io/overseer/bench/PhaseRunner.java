package io.overseer.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one phase as a user would: submit, wait until every order of the phase is final (a count in the
 * database every 2 s, nothing asked of the application server), then read order_history for the figures,
 * check the outcome and draw the throughput plot.
 */
final class PhaseRunner {

    enum Kind { OVERHEAD, PEAK, LATENCY }

    private static final long STALL_MILLIS = 180_000;

    private final Db db;
    private final Simulator simulator;
    private final Sampler sampler;
    private final Path plotDir;
    private final String runId;
    private final CostMeter costs;
    private final AgentCalls agentCalls;

    /** {@code costs} counts what each measured phase cost; null counts nothing (warm-up). */
    PhaseRunner(Db db, Simulator simulator, Sampler sampler, Path plotDir, String runId, CostMeter costs,
                AgentCalls agentCalls) {
        this.db = db;
        this.simulator = simulator;
        this.sampler = sampler;
        this.plotDir = plotDir;
        this.runId = runId;
        this.costs = costs;
        this.agentCalls = agentCalls;
    }

    /** Customer ids of a phase start with this; the database tells its orders apart by it. */
    String prefix(String phase) {
        return "bench-" + runId + "-" + phase + "-";
    }

    PhaseResult run(String name, String description, Kind kind, int orders, int clients, double rate,
                    int stepsPerOrder, long effectsPerOrder, boolean restIds, LoadFactory load) throws Exception {
        Log.info(name + ": " + orders + " orders" + (rate > 0 ? String.format(" paced at %.1f/s", rate) : ", " + clients + " clients"));
        sampler.phase(name);
        Simulator.Stats before = simulator.stats();
        boolean counted = costs != null && !name.startsWith("warmup");
        CostMeter.Snapshot costsBefore = counted ? costs.take() : null;
        AgentCalls.Totals callsBefore = agentCalls.read();
        Load.Result submitted = Load.run(orders, clients, rate, load.submitter(prefix(name)));
        Log.info(String.format("%s: submitted in %.1f s (%.0f/s), %d failed%s", name, submitted.seconds(),
                submitted.perSecond(), submitted.failures(),
                submitted.firstFailure() == null ? "" : " (first: " + submitted.firstFailure() + ")"));
        long polls = awaitFinal(name, orders);
        double agentCallMs = AgentCalls.meanMs(callsBefore, agentCalls.read());
        CostMeter.Costs cost = counted ? CostMeter.between(costsBefore, costs.settleAndTake(), orders, polls) : null;
        sampler.phase("idle");
        PhaseData d = PhaseData.read(db, prefix(name));
        Simulator.Stats after = simulator.stats();
        List<String> problems = new ArrayList<>();
        if (submitted.failures() > 0) {
            problems.add(name + ": " + submitted.failures() + " submissions failed (first: " + submitted.firstFailure() + ")");
        }
        problems.addAll(Verifier.check(name, d, orders, restIds ? submitted.acceptedIds() : null, stepsPerOrder,
                before, after, effectsPerOrder));
        if (sampler.diedDuring() != null) {
            problems.add(name + ": the application server's process (sampled for RSS) died during " + sampler.diedDuring()
                    + " (the launcher restarts it; see the server's log and launcher.log of the run)");
        }
        problems.forEach(p -> Log.info("CHECK FAILED " + p));

        long start = kind == Kind.OVERHEAD ? d.firstClaim() : d.firstSubmit();
        double window = (d.lastProcessed() - start) / 1e6;
        // The drain: processing alone, from the last submission until the last order is final — what the
        // server does when it no longer answers submissions too (bursts only: a paced phase has no backlog).
        double drain = Double.NaN;
        long drainOrders = 0;
        double drainSeconds = Double.NaN;
        if (kind != Kind.LATENCY) {
            long from = d.lastSubmit();
            drainOrders = d.processedSince(from);
            drainSeconds = (d.lastProcessed() - from) / 1e6;
            drain = drainSeconds > 0 ? drainOrders / drainSeconds : Double.NaN;
        }
        List<Double> latencies = d.latenciesMs();
        latencies.sort(null);
        PhaseResult r = new PhaseResult(name, description, orders, submitted, rate, window, d.orders.size() / window,
                d.stepCompletions.size() / window, drain, drainOrders, drainSeconds, latencies, sampler.maxRssMiB(name), sampler.load(name), cost, d.hops(), agentCallMs, problems);
        Plots.throughput(d, description, plotDir.resolve(name + "-throughput.png"));
        Log.info(String.format("%s: %.1f orders/s, %.1f steps/s over %.1f s; latency p50 %.0f ms p99 %.0f ms; %s",
                name, r.ordersPerSecond(), r.stepsPerSecond(), window, r.p(50), r.p(99),
                problems.isEmpty() ? "every order Processed once" : problems.size() + " problems"));
        if (cost != null) {
            Log.info(name + ": " + f1(r.ordersPerSecond()) + " orders/s; " + cost.summary("order"));
        }
        return r;
    }

    /**
     * Polls until every order of the phase is final; returns the number of polls. One connection for all of
     * them, so that each poll is exactly one statement and one commit, which the phase's counts subtract.
     */
    private long awaitFinal(String name, int orders) throws Exception {
        String like = prefix(name).replace("_", "\\_") + "%";
        long last = -1;
        long changedAt = System.currentTimeMillis();
        long reportedAt = 0;
        long polls = 0;
        try (java.sql.Connection c = db.connect(); java.sql.PreparedStatement ps = c.prepareStatement("""
                SELECT count(*) FROM customer_order o JOIN order_state s ON s.order_id = o.order_id
                WHERE o.customer_id LIKE ? AND s.process_state IN ('Processed', 'Compensated', 'Error')""")) {
            ps.setString(1, like);
            while (true) {
                long done;
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    done = rs.getLong(1);
                }
                polls++;
                if (done >= orders) {
                    return polls;
                }
                long now = System.currentTimeMillis();
                if (done != last) {
                    last = done;
                    changedAt = now;
                } else if (now - changedAt > STALL_MILLIS) {
                    Log.info(name + ": no order became final for " + STALL_MILLIS / 1000 + " s (" + done + " of " + orders
                            + " final); checking what there is");
                    return polls;
                }
                if (now - reportedAt > 30_000) {
                    Log.info(name + ": " + done + " of " + orders + " final");
                    reportedAt = now;
                }
                Thread.sleep(2000);
            }
        }
    }

    private static String f1(double v) {
        return Report.f1(v);
    }

    @FunctionalInterface
    interface LoadFactory {
        Load.Submitter submitter(String customerPrefix);
    }
}
