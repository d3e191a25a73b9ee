package io.overseer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * {@code --bulk}: what a large bulk resubmit does to new orders, as ratios within one run (issue 29: "it never
 * outruns the system"). Three steps:
 * <ol>
 * <li>{@code bulk-errors}: N orders of the one-step {@code single-charge} workflow ({@code onExhausted: error}),
 * each with the attribute {@code batch:<run id>}, submitted over REST while the simulator refuses every
 * {@code charge-payment} (its {@code fatal} fault): each stops in Error. Then the fault is healed.</li>
 * <li>{@code bulk-baseline}: new three-step orders paced over REST for S seconds, as the latency phases pace
 * them: their submit → Processed p50/p95/p99.</li>
 * <li>{@code bulk-during}: a bulk resubmit of the N ({@code POST /api/admin/bulk-jobs}, filter state Error and
 * the batch attribute) started, then the same paced new orders for the same S seconds; then it waits for the
 * job to finish and for its N orders to be Processed. The new orders' percentiles ÷ the baseline's; the job's
 * duration and actions/s; the most of its orders seen unfinished at once (the in-flight window); the server's
 * CPU per action, less what the baseline's window cost for as many new orders.</li>
 * </ol>
 * Every order is checked as in the other phases: the new orders Processed once with three steps, the N each
 * resubmitted once and Processed once with its charge applied once, the job Finished with N done.
 */
final class BulkPhase {

    static final String WORKFLOW = "single-charge";
    static final String OPERATION = "charge-payment";
    static final String ATTRIBUTE = "batch";
    /** The single-charge workflow the bench's stack loads beside noop (BenchStack): as the system tests define it. */
    static final String WORKFLOW_JSON = "{\"name\":\"" + WORKFLOW + "\",\"steps\":[{\"name\":\"" + OPERATION
            + "\",\"onExhausted\":\"error\"}]}";
    /** How long a wait on the bulk job or its orders lasts without progress before it gives up. */
    static final long STALL_MILLIS = 180_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What the phase measured. Times in seconds; {@code requestedRate} 0 when none was sent (the server's
     * default, then {@code jobRate} says which); CPU-ms per action NaN when not counted.
     */
    record Result(int orders, double setupSeconds, double loadRate, int requestedRate, int jobRate, long jobId,
                  String jobState, int done, int skipped, int failed, double jobSeconds, double actionsPerSecond,
                  double lastProcessedSeconds, long maxUnfinished, double serverCpuMsPerAction,
                  double serverCpuMsPerActionNet, double cpuMsPerActionNet, PhaseResult baseline, PhaseResult during) {

        double ratio(double percentile) {
            return during.p(percentile) / baseline.p(percentile);
        }
    }

    private final BenchOptions options;
    private final Db db;
    private final Simulator simulator;
    private final PhaseRunner phases;
    private final RestOrders rest;
    private final CostMeter costs;
    private final String jobsUrl;
    private final String batch;
    private final String authorization = "Basic "
            + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8));
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    BulkPhase(BenchOptions options, Db db, Simulator simulator, PhaseRunner phases, RestOrders rest, CostMeter costs,
              String baseUrl, String runId) {
        this.options = options;
        this.db = db;
        this.simulator = simulator;
        this.phases = phases;
        this.rest = rest;
        this.costs = costs;
        this.jobsUrl = baseUrl + "/api/admin/bulk-jobs";
        this.batch = "bench-" + runId;
    }

    /**
     * Runs the three steps; {@code loadRate} new orders per second in both windows; {@code idle} the idle
     * background per second (for the net CPU per action; null: not computed). Problems go to {@code problems}.
     */
    Result run(Sampler sampler, double loadRate, CostMeter.Costs idle, List<String> problems) throws Exception {
        int n = options.bulkOrders();
        double setupSeconds = putIntoError(sampler, n, problems);

        int paced = Math.max(10, (int) Math.round(loadRate * options.bulkSeconds()));
        PhaseResult baseline = phases.run("bulk-baseline", "New orders, REST, paced, before the bulk resubmit",
                PhaseRunner.Kind.LATENCY, paced, options.clients(), loadRate, 3, 3, true, p -> rest.submitter(p, null));
        problems.addAll(baseline.problems());

        Simulator.Stats simBefore = simulator.stats();
        CostMeter.Snapshot costsBefore = costs.take();
        JsonNode job = startJob(n, loadRate, problems);
        long jobId = job.path("id").asLong();
        BulkJobWatch watch = new BulkJobWatch(db, jobId);
        PhaseResult during = whileTheJobRuns(sampler, watch, n, paced, loadRate, problems);
        awaitProcessed(n);
        CostMeter.Snapshot costsAfter = costs.settleAndTake();
        sampler.phase("idle");
        Simulator.Stats simAfter = simulator.stats();

        JsonNode finished = get(jobId);
        checkFinished(finished, jobId, n, problems);
        PhaseData bulkOrders = PhaseData.read(db, phases.prefix("bulk-errors"));
        checkResubmitted(jobId, n, bulkOrders, during, simBefore, simAfter, problems);

        double[] times = jobTimes(jobId);
        double jobSeconds = times[1] - times[0];
        double lastProcessed = bulkOrders.lastProcessed() / 1e6 - times[0];
        double[] cpu = cpuMsPerAction(CostMeter.between(costsBefore, costsAfter, 1, 0), baseline, idle, n);
        int done = finished.path("done").asInt();
        int skipped = finished.path("skipped").asInt();
        int failed = finished.path("failed").asInt();
        Result r = new Result(n, setupSeconds, loadRate, options.bulkRate(), job.path("rate").asInt(), jobId,
                finished.path("state").asText(), done, skipped, failed, jobSeconds, (done + skipped + failed) / jobSeconds,
                lastProcessed, watch.maxUnfinished.get(), cpu[0], cpu[1], cpu[2], baseline, during);
        Log.info(String.format(java.util.Locale.ROOT, "bulk: new orders p50/p95/p99 %.0f/%.0f/%.0f ms during the job vs"
                        + " %.0f/%.0f/%.0f ms before: ×%.2f/×%.2f/×%.2f; job %d: %d actions in %.1f s (%.1f/s, asked %d/s),"
                        + " its last order Processed %.1f s after its start, at most %d of its orders unfinished at once;"
                        + " server CPU-ms per action %.1f (%.1f net of the new orders' and the idle background's)",
                during.p(50), during.p(95), during.p(99), baseline.p(50), baseline.p(95), baseline.p(99), r.ratio(50),
                r.ratio(95), r.ratio(99), jobId, done, jobSeconds, r.actionsPerSecond(), r.jobRate(), lastProcessed,
                r.maxUnfinished(), cpu[0], cpu[1]));
        return r;
    }

    /** Step 3's start: the bulk resubmit of the N, whose selection must be exactly the N put into Error. */
    private JsonNode startJob(int n, double loadRate, List<String> problems) throws Exception {
        JsonNode job = start(n);
        int total = job.path("total").asInt();
        Log.info("bulk-during: bulk job " + job.path("id").asLong() + " started: resubmit " + total + " orders at "
                + job.path("rate").asInt() + "/s; new orders paced at " + Report.f1(loadRate) + "/s for "
                + options.bulkSeconds() + " s");
        if (total != n) {
            problems.add("bulk-during: the job's selection holds " + total + " orders, not the " + n + " put into Error");
        }
        return job;
    }

    /** Step 3's window: the paced new orders while {@code watch} follows the job, then the job's end. */
    private PhaseResult whileTheJobRuns(Sampler sampler, BulkJobWatch watch, int n, int paced, double loadRate,
                                        List<String> problems) throws Exception {
        Thread watcher = new Thread(watch, "bulk-watch");
        watcher.setDaemon(true);
        watcher.start();
        PhaseResult during = phases.run("bulk-during", "New orders, REST, paced, while a bulk resubmit of " + n + " runs",
                PhaseRunner.Kind.LATENCY, paced, options.clients(), loadRate, 3, Verifier.SHARED_SIMULATOR, true,
                p -> rest.submitter(p, null));
        problems.addAll(during.problems());
        sampler.phase("bulk-job");
        Log.info("bulk-during: the new orders are done; waiting for bulk job " + watch.id + " and its orders");
        watcher.join();
        if (watch.failure != null) {
            throw watch.failure;
        }
        return during;
    }

    private static void checkFinished(JsonNode finished, long jobId, int n, List<String> problems) {
        String state = finished.path("state").asText();
        int done = finished.path("done").asInt();
        int skipped = finished.path("skipped").asInt();
        int failed = finished.path("failed").asInt();
        if (!"Finished".equals(state) || done != n || skipped != 0 || failed != 0) {
            problems.add("bulk-during: job " + jobId + " is " + state + " with " + done + " done, " + skipped + " skipped, "
                    + failed + " failed; expected Finished with " + n + " done");
        }
    }

    /** The N each resubmitted once and Processed once, their charges and the new orders' effects each applied once. */
    private void checkResubmitted(long jobId, int n, PhaseData bulkOrders, PhaseResult during, Simulator.Stats simBefore,
                                  Simulator.Stats simAfter, List<String> problems) throws Exception {
        problems.addAll(Verifier.check("bulk-during (the resubmitted orders)", bulkOrders, n, null, 1, simBefore, simAfter,
                Verifier.SHARED_SIMULATOR));
        long notOnce = notResubmittedOnce(jobId);
        if (notOnce != 0) {
            problems.add("bulk-during: " + notOnce + " of job " + jobId + "'s orders not resubmitted exactly once"
                    + " (order_history: Error → Pending by an operator)");
        }
        long applied = simAfter.applied() - simBefore.applied();
        long expected = n + 3L * during.orders();
        if (applied != expected) {
            problems.add("bulk-during: simulator applied " + applied + " effects, expected " + expected + " (" + n
                    + " charges resubmitted, " + during.orders() + " new orders × 3)");
        }
    }

    /**
     * CPU-ms per action of the job's window: the server's gross, then the server's and the whole machine's net
     * of what the baseline's window cost for as many new orders and of the idle background (NaN without them).
     */
    private static double[] cpuMsPerAction(CostMeter.Costs window, PhaseResult baseline, CostMeter.Costs idle, int n) {
        double serverNet = Double.NaN;
        double totalNet = Double.NaN;
        if (baseline.costs() != null && idle != null) {
            double extra = window.windowSeconds() - baseline.costs().windowSeconds();
            serverNet = (window.cpuMs()[0] - baseline.costs().cpuMs()[0] * baseline.costs().divisor()
                    - idle.cpuMs()[0] * extra) / n;
            totalNet = (window.cpuTotalMs() - baseline.costs().cpuTotalMs() * baseline.costs().divisor()
                    - idle.cpuTotalMs() * extra) / n;
        }
        return new double[] {window.cpuMs()[0] / n, serverNet, totalNet};
    }

    /** Step 1: N single-charge orders refused into Error, then the fault healed. Returns the seconds it took. */
    private double putIntoError(Sampler sampler, int n, List<String> problems) throws Exception {
        String name = "bulk-errors";
        sampler.phase(name);
        Log.info(name + ": " + n + " " + WORKFLOW + " orders with " + ATTRIBUTE + ":" + batch + " while the simulator"
                + " refuses every " + OPERATION + " (fatal)");
        long t0 = System.nanoTime();
        Simulator.Stats before = simulator.stats();
        simulator.fault(OPERATION, "fatal");
        try {
            Load.Result submitted = Load.run(n, options.clients(), 0,
                    rest.submitter(phases.prefix(name), WORKFLOW, ATTRIBUTE, batch));
            if (submitted.failures() > 0) {
                problems.add(name + ": " + submitted.failures() + " submissions failed (first: " + submitted.firstFailure() + ")");
            }
            String like = phases.prefix(name).replace("_", "\\_") + "%";
            await(name, n, """
                    SELECT count(*) FROM customer_order o JOIN order_state s ON s.order_id = o.order_id
                    WHERE o.customer_id LIKE ? AND s.process_state IN ('Processed', 'Compensated', 'Error')""", like);
        } finally {
            simulator.heal();
        }
        sampler.phase("idle");
        double seconds = (System.nanoTime() - t0) / 1e9;
        PhaseData d = PhaseData.read(db, phases.prefix(name));
        long inError = d.orders.values().stream().filter(t -> "Error".equals(t.state)).count();
        if (d.orders.size() != n || inError != n) {
            problems.add(name + ": " + d.orders.size() + " orders found, " + inError + " in Error; expected " + n + " in Error");
        }
        long applied = simulator.stats().applied() - before.applied();
        if (applied != 0) {
            problems.add(name + ": the simulator applied " + applied + " effects while it refused every " + OPERATION);
        }
        Log.info(String.format(java.util.Locale.ROOT, "%s: %d orders in Error in %.1f s; fault healed", name, inError, seconds));
        return seconds;
    }

    private JsonNode start(int n) throws Exception {
        String body = "{\"action\":\"resubmit\",\"filter\":{\"state\":\"Error\",\"attribute\":\"" + ATTRIBUTE + ":" + batch
                + "\"},\"reason\":\"bench: bulk resubmit of " + n + " orders\""
                + (options.bulkRate() > 0 ? ",\"ratePerSecond\":" + options.bulkRate() : "") + "}";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(jobsUrl)).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json").header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            throw new IllegalStateException("POST /api/admin/bulk-jobs answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private JsonNode get(long id) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(jobsUrl + "/" + id))
                .timeout(Duration.ofSeconds(30)).header("Authorization", authorization).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET /api/admin/bulk-jobs/" + id + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** The job's start and end (created_at, finished_at) in epoch seconds, as the server recorded them. */
    private double[] jobTimes(long id) throws Exception {
        try (Connection c = db.connect();
             PreparedStatement ps = c.prepareStatement("SELECT created_at, finished_at FROM bulk_job WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Timestamp end = rs.getTimestamp(2);
                return new double[] {seconds(rs.getTimestamp(1)), end == null ? Double.NaN : seconds(end)};
            }
        }
    }

    /** The job's orders whose history has not exactly one resubmission (the order's Error → Pending by an operator). */
    private long notResubmittedOnce(long id) throws Exception {
        return db.count("""
                SELECT count(*) FROM bulk_item i WHERE i.job_id = ? AND (SELECT count(*) FROM order_history h
                WHERE h.order_id = i.target AND h.step_name IS NULL AND h.actor = 'operator' AND h.from_state = 'Error') <> 1""",
                id);
    }

    private static double seconds(Timestamp t) {
        return t.getTime() / 1000.0 + (t.getNanos() % 1_000_000) / 1e9;
    }

    /** Waits for the job's N orders to be Processed (the job finishes once it has acted; its orders run on). */
    private void awaitProcessed(int n) throws Exception {
        String like = phases.prefix("bulk-errors").replace("_", "\\_") + "%";
        await("bulk-during (the resubmitted orders)", n, """
                SELECT count(*) FROM customer_order o JOIN order_state s ON s.order_id = o.order_id
                WHERE o.customer_id LIKE ? AND s.process_state = 'Processed'""", like);
    }

    /** Polls {@code sql} (one count) every 2 s until it reaches {@code target}, or nothing changes for 180 s. */
    private void await(String name, long target, String sql, Object param) throws Exception {
        long last = -1;
        long changedAt = System.currentTimeMillis();
        long reportedAt = System.currentTimeMillis();
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, param);
            while (true) {
                long count;
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    count = rs.getLong(1);
                }
                if (count >= target) {
                    return;
                }
                long now = System.currentTimeMillis();
                if (count != last) {
                    last = count;
                    changedAt = now;
                } else if (now - changedAt > STALL_MILLIS) {
                    Log.info(name + ": no change for " + STALL_MILLIS / 1000 + " s (" + count + " of " + target + "); checking what there is");
                    return;
                }
                if (now - reportedAt > 30_000) {
                    Log.info(name + ": " + count + " of " + target);
                    reportedAt = now;
                }
                Thread.sleep(2000);
            }
        }
    }

    /** For a report's table: the asked rate, or the server's default and what it was. */
    static String rateText(Result r) {
        return r.requestedRate() > 0 ? r.jobRate() + "/s (--bulk-rate)" : r.jobRate() + "/s (the server's default)";
    }
}
