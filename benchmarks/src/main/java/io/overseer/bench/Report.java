package io.overseer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The run as a Markdown section: settings, machine, every figure with its ratio to the peers and ceilings. */
final class Report {

    /** The fields of a RESULT line worth a column; the rest (SQL text, server versions) stay in results.json's logs. */
    private static final List<String> DETAILS = List.of("tasks", "repetitions", "runs", "polling", "threads", "workers",
            "clients", "transactions", "messages", "inFlight", "transacted", "finished", "rows", "sharedHitBlocks", "plan",
            "historyRows", "attributeRows", "listing", "attribute", "matchingOrders", "answers", "serverCpuMsPerAnswer",
            "serverCpuMsPerOrder",
            "version");

    private final StringBuilder md = new StringBuilder();
    private final BenchRun run;

    private Report(BenchRun run) {
        this.run = run;
    }

    static String render(BenchRun run) {
        return new Report(run).build();
    }

    private String build() {
        BenchOptions o = run.options;
        Machine m = run.machine;
        line("## " + run.title);
        line("");
        line("`./bench " + String.join(" ", run.args.stream().map(a -> a.contains(" ") ? "'" + a + "'" : a).toList()) + "`, " + run.startedAt + " to " + run.endedAt + " UTC ("
                + f0(run.totalSeconds / 60) + " min; stack start " + f0(run.stackStartSeconds) + " s, of which " + o.runtime().label()
                + " " + (run.serverReadyMillis < 0 ? "n/a" : f1(run.serverReadyMillis / 1000.0) + " s") + " from launch to ready). Code: " + m.git() + ".");
        line("Runtime: **" + m.server() + "** (`--runtime " + o.runtime().id() + "`, the " + (o.runtime().runsEar() ? "EAR" : "WAR")
                + " with the no-op agent added).");
        line("Machine: " + m.cores() + " cores, " + f1(m.ramGiB()) + " GiB RAM, kernel " + m.kernel() + ", " + m.jdk()
                + ". " + m.server() + " (-Xmx512m, JIT " + o.serverJit() + "), Artemis " + m.artemis() + ", " + run.postgresVersion
                + ", db-scheduler " + version("peer.db-scheduler.lock-and-fetch.noop") + ", JobRunr " + version("peer.jobrunr.noop") + ".");
        line("Settings: " + o.noopOrders() + " no-op orders (overhead), " + o.e2eOrders() + " three-step orders per"
                + " end-to-end run, " + o.latencySeconds() + " s per latency run, " + o.loneOrders() + " lone orders one at a time"
                + " (REST and JMS each), " + o.clients() + " REST clients / JMS"
                + " producers; peers " + o.peerTasks() + " tasks × " + o.peerRepeat() + " (median); scale probe at "
                + o.scaleFinished().get(0) + " and " + o.scaleFinished().get(1) + " finished orders. The launcher's"
                + " defaults otherwise: PostgreSQL fsync and synchronous_commit on, Artemis NIO journal, application"
                + " properties at their defaults (complete-by 30 s, stranded-after 10 s)"
                + (o.appProperties().isEmpty() ? "." : " but for **" + String.join(", ", o.appProperties()) + "**.")
                + (o.traced() ? " **Tracing on** (`--tracing`), sampling " + f1(o.tracing() * 100) + " % of new traces,"
                        + " exported to Zipkin beside the stack (its CPU and the launcher's relay are not in the costs below)."
                        : " Tracing off (the servers' default)."));
        double[] load = run.sampler.load(null);
        line("Load average (1 min) during the run: min " + f2(load[0]) + ", mean " + f2(load[1]) + ", max " + f2(load[2])
                + " on " + m.cores() + " cores (other work on the machine included). Everything on one machine: the"
                + " load generator, " + o.runtime().label() + ", Artemis, PostgreSQL, the simulator and the peers share the cores.");
        line("Warm-up before measuring: " + run.warmupOrders + " three-step orders over REST, as many over JMS and "
                + run.warmupOrders + " no-op orders, " + run.options.clients() + " clients (checked, not reported; each"
                + " peer warms up with 2000 tasks).");
        line("");
        figures();
        hopsTable();
        md.append(CostTable.render(run));
        peersTable();
        if (!run.jfrTop.isEmpty()) {
            line("");
            line("Hottest methods in " + run.options.runtime().label() + " (JFR execution samples, top frame), recorded"
                    + " during two more end-to-end bursts (REST, then JMS, " + run.options.e2eOrders() + " orders each)"
                    + " run after the measured phases: no figure above carries the recording:");
            line("");
            line("| % | samples | method |");
            line("|---|---|---|");
            run.jfrTop.forEach(h -> line("| " + f1(h.percent()) + " | " + h.samples() + " | `" + h.method() + "` |"));
        }
        line("");
        line("Checks after every phase: every submitted order exists once, is Processed with each step completed"
                + " once, and the simulator's `appliedTwice` is 0 with exactly one applied effect per step: "
                + (run.problems.isEmpty() ? "**all passed**." : "**FAILED**: " + String.join("; ", run.problems)));
        line("");
        plots();
        return md.toString();
    }

    private void figures() {
        PhaseResult over = run.phases.get("overhead");
        PhaseResult rest = run.phases.get("e2e-rest");
        PhaseResult jms = run.phases.get("e2e-jms");
        PhaseResult latRest = run.phases.get("latency-rest");
        PhaseResult latJms = run.phases.get("latency-jms");
        line("| figure | value | ratio |");
        line("|---|---|---|");
        if (over != null) {
            overheadRows(over);
        }
        loginRow();
        submissionBatchRow();
        for (PhaseResult p : new PhaseResult[] {rest, jms}) {
            if (p != null) {
                line("| **End to end " + (p == rest ? "REST" : "JMS") + "**: three-step `order`, " + p.orders()
                        + " orders, first submission → last Processed | **" + f1(p.ordersPerSecond()) + " orders/s**, "
                        + f1(p.stepsPerSecond()) + " steps/s (submission " + f0(p.load().perSecond()) + "/s) | "
                        + baselineRatio(p) + "; steps/s " + ratio(p.stepsPerSecond(), "peer.db-scheduler.lock-and-fetch.http",
                        "db-scheduler one HTTP call per task") + " |");
                drainRow("End to end " + (p == rest ? "REST" : "JMS"), p);
            }
        }
        for (String lone : List.of("lone-rest", "lone-jms")) {
            PhaseResult p = run.phases.get(lone);
            if (p != null) {
                line("| Lone orders " + (lone.endsWith("rest") ? "REST" : "JMS") + ", submit → Processed, one at a time ("
                        + f1(p.offeredRate()) + "/s) on the idle stack, " + p.orders() + " orders | p50 " + ms(p.p(50))
                        + ", p95 " + ms(p.p(95)) + " (max " + ms(p.p(100)) + ") | |");
            }
        }
        for (PhaseResult p : new PhaseResult[] {latRest, latJms}) {
            if (p != null) {
                line("| Latency " + (p == latRest ? "REST" : "JMS") + ", submit → Processed, paced at " + f1(p.offeredRate())
                        + "/s (half the peak), " + p.orders() + " orders | p50 " + ms(p.p(50)) + ", p95 " + ms(p.p(95))
                        + ", p99 " + ms(p.p(99)) + " (max " + ms(p.p(100)) + ") | |");
            }
        }
        bulkRows();
        rssRow();
        scaleRows();
        line("");
        line("Rates come from order_history: the first claim (Pending → Processing) or first submission to the last"
                + " → Processed. Latency: an order's first history row to its Processed row (for JMS, from when the"
                + " application took the message off the queue). Load average per phase (mean): "
                + String.join(", ", run.phases.values().stream().map(p -> p.name() + " " + f2(p.load1()[1])).toList()) + ".");
        line("");
    }

    /** The no-op backlog's rate against the peers' no-op, its drain, and its submission rate against the ceilings. */
    private void overheadRows(PhaseResult over) {
        line("| **Overhead**: one no-op step (coded agent), " + over.orders() + " orders, first claim → last Processed | **"
                + f1(over.ordersPerSecond()) + " orders/s** | " + ratio(over.ordersPerSecond(), "peer.db-scheduler.lock-and-fetch.noop", "db-scheduler lock-and-fetch no-op")
                + "; " + ratio(over.ordersPerSecond(), "peer.jobrunr.noop", "JobRunr no-op") + " |");
        drainRow("Overhead", over);
        line("| REST submission, " + run.options.clients() + " clients, while processing runs | " + f1(over.load().perSecond())
                + " orders/s | " + ratio(over.load().perSecond(), "ceiling.pgbench.insert.c32", "pgbench 32 clients")
                + "; " + ratio(over.load().perSecond(), "ceiling.container.delayed-submit",
                "the server's floor: a delayed submission, stored and not processed")
                + "; " + ratio(over.load().perSecond(), "ceiling.container.authenticated-get",
                "an authenticated GET answered 404") + " |");
    }

    /** The server's resident memory, the most under load and per phase. */
    private void rssRow() {
        StringBuilder rss = new StringBuilder();
        run.sampler.maxRssByPhase().forEach((phase, mib) -> {
            if (!phase.equals("idle")) {
                rss.append(rss.length() == 0 ? "" : ", ").append(phase).append(' ').append(f0(mib));
            }
        });
        line("| " + run.options.runtime().label() + " RSS, max under load (VmRSS, sampled each second) | " + f0(run.sampler.maxRssMiB(null))
                + " MiB | per phase: " + rss + " |");
    }

    /** What the login costs a request: the authenticated GET against the same GET refused before login (ContainerFloor). */
    private void loginRow() {
        double share = run.peers.loginShare();
        if (Double.isNaN(share)) {
            return;
        }
        double auth = run.peers.field("ceiling.container.authenticated-get", "serverCpuMsPerAnswer");
        double anon = run.peers.field("ceiling.container.unauthenticated-get", "serverCpuMsPerAnswer");
        double refused = run.peers.field("ceiling.container.authenticated-refused", "serverCpuMsPerAnswer");
        line("| **The login's share of a request** (HTTP Basic, the file realm), server CPU-ms per request, "
                + run.options.clients() + " clients: a GET refused after the login (403) − the same refused before it"
                + " (401), ÷ the authenticated `GET /api/orders/{id}` (404) | **" + f0(share * 100) + " %** ("
                + f3(refused) + " − " + f3(anon) + " = " + f3(refused - anon) + " of " + f3(auth) + " CPU-ms) | the"
                + " rest of the 404: the container's floor (the 401) " + f3(anon) + ", JAX-RS, the read and the problem"
                + " (404 − 403) " + f3(auth - refused) + "; `GET /health/live` " + f3(run.peers.field(
                "ceiling.container.health-live", "serverCpuMsPerAnswer")) + " |");
    }

    /** Processing alone: the orders that became final after the last submission, over that time. */
    private void drainRow(String phase, PhaseResult p) {
        line("| " + phase + ", drain only (processing alone: the last submission → the last Processed) | "
                + f1(p.drainPerSecond()) + " orders/s | " + p.drainOrders() + " orders in " + f1(p.drainSeconds())
                + " s; with submission: " + f1(p.ordersPerSecond()) + " orders/s |");
    }

    /** The batch endpoint against single submissions, both delayed (stored, not processed), same clients (SubmissionBatches). */
    private void submissionBatchRow() {
        double single = run.peers.value("submission.rest.single");
        double batch = run.peers.value("submission.rest.batch100");
        if (!Double.isNaN(single) && !Double.isNaN(batch)) {
            line("| **REST submission in batches of 100** (`POST /api/orders/batch`), delayed orders: stored, not processed,"
                    + " " + run.options.clients() + " clients | **" + f0(batch) + " orders/s**, "
                    + f2(run.peers.results.get("submission.rest.batch100").path("serverCpuMsPerOrder").asDouble())
                    + " server CPU-ms each | ÷ one order per request " + f0(single) + "/s ("
                    + f2(run.peers.results.get("submission.rest.single").path("serverCpuMsPerOrder").asDouble())
                    + " CPU-ms each) = **" + f1(batch / single) + "×** (target ≥ 10×) |");
        }
    }

    /**
     * --bulk: the new orders' percentiles during the bulk resubmit ÷ before it, in one run; the job's pace and cost.
     */
    private void bulkRows() {
        BulkPhase.Result b = run.bulk;
        if (b == null) {
            return;
        }
        PhaseResult base = b.baseline();
        PhaseResult during = b.during();
        line("| **Bulk resubmit**: new three-step orders over REST, paced at " + f1(b.loadRate()) + "/s for "
                + run.options.bulkSeconds() + " s, submit → Processed, while a bulk resubmit of " + b.orders()
                + " orders in Error (`" + BulkPhase.WORKFLOW + "`) runs at " + BulkPhase.rateText(b) + ", "
                + during.orders() + " orders | p50 " + ms(during.p(50)) + ", p95 " + ms(during.p(95)) + ", p99 "
                + ms(during.p(99)) + " (max " + ms(during.p(100)) + ") | ÷ the same load just before, " + base.orders()
                + " orders (p50 " + ms(base.p(50)) + ", p95 " + ms(base.p(95)) + ", p99 " + ms(base.p(99))
                + ") = **" + f2(b.ratio(50)) + " / " + f2(b.ratio(95)) + " / " + f2(b.ratio(99)) + "** |");
        line("| Bulk job " + b.jobId() + ": " + b.done() + " resubmitted, " + b.skipped() + " skipped, " + b.failed()
                + " failed, start → Finished (the server's created_at → finished_at) | **" + f1(b.jobSeconds()) + " s, "
                + f1(b.actionsPerSecond()) + " actions/s** (asked " + b.jobRate() + "/s) | its last order Processed "
                + f1(b.lastProcessedSeconds()) + " s after the start; at most " + b.maxUnfinished() + " of its orders"
                + " unfinished at once (sampled each second; the window is `overseer.bulk.in-flight`); " + b.orders()
                + " orders put into Error in " + f0(b.setupSeconds()) + " s |");
        line("| Bulk job, server CPU-ms per action (job start → its last order Processed" + (run.options.quick() ? ")" : " + "
                + CostMeter.SETTLE_MILLIS / 1000 + " s)") + " | " + f1(b.serverCpuMsPerAction()) + " gross, **"
                + f1(b.serverCpuMsPerActionNet()) + " net** | net: less the baseline window's CPU (as many new orders) and"
                + " the idle background for the rest of the window; all four processes, net: " + f1(b.cpuMsPerActionNet())
                + " CPU-ms per action (the resubmitted order's claim, call and reply included) |");
    }

    /**
     * Where a three-step order's time goes, hop by hop, alone on an idle stack and at half the peak: the
     * simulator's own time per call is subtracted from each step's round trip, so what is left is Overseer's.
     */
    private void hopsTable() {
        List<PhaseResult> phases = new ArrayList<>();
        for (String name : List.of("lone-rest", "lone-jms", "latency-rest", "latency-jms")) {
            PhaseResult p = run.phases.get(name);
            if (p != null && p.hops() != null && !p.hops().stepRoundTrips().isEmpty()) {
                phases.add(p);
            }
        }
        if (phases.isEmpty()) {
            return;
        }
        line("Where a three-step order's time goes, hop by hop (ms, p50 / p95, from order_history; the simulator's"
                + " time from its own GET /stats over the phase):");
        line("");
        StringBuilder head = new StringBuilder("| hop |");
        StringBuilder rule = new StringBuilder("|---|");
        for (PhaseResult p : phases) {
            head.append(' ').append(p.name()).append(" (").append(p.hops().submittedToClaimed().size()).append(" orders) |");
            rule.append("---|");
        }
        line(head.toString());
        line(rule.toString());
        hopRow("submitted → claimed (commit, dispatch hint, claim)", phases, h -> h.submittedToClaimed());
        hopRow("per step: request → reply applied", phases, h -> h.stepRoundTrips());
        StringBuilder call = new StringBuilder("| per step: of which the agent's HTTP call, as the agent timed it (mean) |");
        StringBuilder sim = new StringBuilder("| per step: of which the simulator's own time (mean per call) |");
        StringBuilder rest = new StringBuilder("| per step: broker hops, transactions, fence read (round trip p50 − agent's call) |");
        StringBuilder own = new StringBuilder("| **per step: Overseer's own share** (round trip p50 − simulator) |");
        for (PhaseResult p : phases) {
            double roundTrip = Stats.percentile(p.hops().stepRoundTrips(), 50);
            double simMs = p.costs() != null && p.costs().simulatorCalls() > 0 ? p.costs().simulatorMsPerCall() : Double.NaN;
            double callMs = p.agentCallMs();
            call.append(' ').append(Double.isNaN(callMs) ? "n/a" : f2(callMs)).append(" |");
            sim.append(' ').append(Double.isNaN(simMs) ? "n/a" : f2(simMs)).append(" |");
            rest.append(' ').append(Double.isNaN(callMs) ? "n/a" : f1(roundTrip - callMs)).append(" |");
            own.append(" **").append(Double.isNaN(simMs) ? "n/a" : f1(roundTrip - simMs)).append("** |");
        }
        line(call.toString());
        line(sim.toString());
        line(rest.toString());
        line(own.toString());
        hopRow("last reply applied → Processed (same transaction)", phases, h -> h.lastReplyToProcessed());
        line("");
        line("A step's round trip is its request's commit and delivery to the agent, the agent's work (the fence"
                + " read, the remote call, the reply's send), the reply's delivery and the transaction that applies it —"
                + " which also sends the next step's request, so nothing lies between one step's reply and the next one's"
                + " request. The agent's call is its own timer (`overseer_agent_call_duration_seconds` in /api/metrics,"
                + " read before and after the phase): the JDK HTTP client, loopback and the simulator. JMS orders count"
                + " from when the application took the message off the queue.");
        line("");
    }

    private void hopRow(String label, List<PhaseResult> phases, java.util.function.Function<PhaseData.Hops, List<Double>> hop) {
        StringBuilder row = new StringBuilder("| " + label + " |");
        for (PhaseResult p : phases) {
            List<Double> v = hop.apply(p.hops());
            row.append(' ').append(v.isEmpty() ? "n/a" : f1(Stats.percentile(v, 50)) + " / " + f1(Stats.percentile(v, 95)))
                    .append(" |");
        }
        line(row.toString());
    }

    private void scaleRows() {
        List<Integer> sizes = run.options.scaleFinished();
        for (Map.Entry<String, JsonNode> e : run.peers.results.entrySet()) {
            String name = e.getKey();
            String bigSuffix = ".f" + sizes.get(1);
            if (!name.startsWith("scale.") || name.startsWith("scale.load.") || !name.endsWith(bigSuffix)) {
                continue;
            }
            String small = name.substring(0, name.length() - bigSuffix.length()) + ".f" + sizes.get(0);
            double big = e.getValue().path("value").asDouble(Double.NaN);
            line("| Scale: " + name.substring(0, name.lastIndexOf('.')) + " at " + sizes.get(1) + " finished orders | "
                    + f3(big) + " " + e.getValue().path("unit").asText() + " | ÷ at " + sizes.get(0) + " ("
                    + f3(run.peers.value(small)) + ") = **" + f2(big / run.peers.value(small)) + "** |");
        }
    }

    private void peersTable() {
        line("Peers and ceilings, on the same PostgreSQL (database `" + Db.PEERS_DB + "`) and broker, run after the"
                + " phases above with the stack idle; last, the server's own floor (`ceiling.container.*`: an"
                + " authenticated GET answered 404, the same GET without credentials answered 401, `GET /health/live`,"
                + " and a submission delayed 300 days, stored and not processed, with the same clients):");
        line("");
        line("| measurement | value | details |");
        line("|---|---|---|");
        for (Map.Entry<String, JsonNode> e : run.peers.results.entrySet()) {
            JsonNode n = e.getValue();
            List<String> details = new ArrayList<>();
            n.fields().forEachRemaining(f -> {
                if (DETAILS.contains(f.getKey())) {
                    details.add(f.getKey() + " " + (f.getValue().isTextual() ? f.getValue().asText() : f.getValue().toString()));
                }
            });
            double v = n.path("value").asDouble();
            line("| " + e.getKey() + " | " + (v < 10 ? f3(v) : f1(v)) + " " + n.path("unit").asText() + " | "
                    + String.join(", ", details) + " |");
        }
        run.peers.failures.forEach((label, why) -> line("| " + label + " | not run | " + why + " |"));
    }

    private void plots() {
        line("Plots (`" + run.plotDirRelative + "/`): " + String.join(", ", run.plots.stream()
                .map(p -> "[" + p + "](" + run.plotDirRelative + "/" + p + ")").toList()) + ".");
        line("");
    }

    private String ratio(double value, String resultName, String label) {
        double peer = run.peers.value(resultName);
        if (Double.isNaN(peer)) {
            return "÷ " + label + ": not run";
        }
        return "÷ " + label + " " + f0(peer) + "/s = **" + f3(value / peer) + "**";
    }

    private String baselineRatio(PhaseResult p) {
        if (run.options.saveBaseline()) {
            return "this run is the baseline";
        }
        Double base = run.baseline.get(p.name() + ".ordersPerSecond");
        if (base == null) {
            return "vs baseline: none recorded";
        }
        return "vs baseline " + f1(base) + "/s = **" + f2(p.ordersPerSecond() / base) + "**";
    }

    private String version(String resultName) {
        JsonNode n = run.peers.results.get(resultName);
        return n == null ? "(not run)" : n.path("version").asText("unknown");
    }

    private void line(String s) {
        md.append(s).append('\n');
    }

    static String f0(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.0f", v);
    }

    static String f1(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }

    static String f2(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
    }

    static String f3(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.3f", v);
    }

    static String ms(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return v >= 10_000 ? String.format(Locale.ROOT, "%.1f s", v / 1000) : String.format(Locale.ROOT, "%.0f ms", v);
    }
}
