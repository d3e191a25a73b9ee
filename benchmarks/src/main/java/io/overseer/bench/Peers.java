package io.overseer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The peers and ceilings (programs of io.overseer.bench.peers/ceilings/scale), each run as its own JVM
 * against the stack's PostgreSQL and broker. Contract: {@code --key value} arguments, one
 * {@code RESULT {json}} line per measurement on stdout, non-zero exit on failure. A program that is
 * missing or fails is reported by name; no figure is ever made up for it.
 */
final class Peers {

    static final String PEER_BENCH = "io.overseer.bench.peers.PeerBench";
    static final String PGBENCH = "io.overseer.bench.ceilings.PgbenchCeiling";
    static final String ARTEMIS = "io.overseer.bench.ceilings.ArtemisCeiling";
    static final String SCALE = "io.overseer.bench.scale.ScaleProbe";
    static final String CONTAINER = "io.overseer.bench.ceilings.ContainerFloor";
    static final String SUBMISSION_BATCHES = "io.overseer.bench.ceilings.SubmissionBatches";
    /** ./run's read-only user (viewer/viewer), which the launcher creates beside the demo user. */
    static final String VIEWER = "viewer";
    static final List<String> PROGRAMS = List.of(PEER_BENCH, PGBENCH, ARTEMIS, SCALE, CONTAINER, SUBMISSION_BATCHES);

    record Job(String label, String mainClass, List<String> args, int timeoutMinutes) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Results by name (e.g. "peer.db-scheduler.lock-and-fetch.noop"), and why each job failed, if one did. */
    final Map<String, JsonNode> results = new LinkedHashMap<>();
    final Map<String, String> failures = new LinkedHashMap<>();
    final Map<String, Double> seconds = new LinkedHashMap<>();

    static List<String> missingPrograms() {
        List<String> missing = new ArrayList<>();
        for (String p : PROGRAMS) {
            try {
                Class.forName(p, false, Peers.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                missing.add(p);
            }
        }
        return missing;
    }

    /**
     * The jobs of one run: sizes from the options, connection details from the running stack; {@code user} is
     * the stack's demo user, which the broker and the HTTP API both know.
     */
    static List<Job> jobs(BenchOptions o, BenchStack stack, String user, String password) {
        String jdbc = stack.jdbcUrl(Db.PEERS_DB);
        List<String> db = List.of("--jdbc", jdbc, "--user", Db.PEERS_USER, "--password", Db.PEERS_PASSWORD);
        List<Job> jobs = new ArrayList<>();
        jobs.add(new Job("PeerBench", PEER_BENCH, concat(db, "--tasks", o.peerTasks(), "--repeat", o.peerRepeat(),
                "--simulator", stack.simulatorUrl()), 45));
        jobs.add(new Job("PgbenchCeiling", PGBENCH, List.of("--host", "127.0.0.1", "--port",
                Integer.toString(o.dbPort()), "--user", Db.PEERS_USER, "--password", Db.PEERS_PASSWORD,
                "--db", Db.PEERS_DB, "--seconds", o.quick() ? "3" : "10", "--clients", "1,8,32"), 10));
        jobs.add(new Job("ArtemisCeiling", ARTEMIS, List.of("--host", "127.0.0.1", "--port",
                Integer.toString(o.brokerPort()), "--user", user, "--password", password,
                "--queue", StackStaging.CEILING_QUEUE_NAME, "--messages", o.quick() ? "2000" : "20000",
                "--warmup", o.quick() ? "500" : "2000"), 10));
        // ScaleProbe copies the application's tables into a scratch schema of the application's database.
        List<String> app = List.of("--jdbc", stack.jdbcUrl(), "--user", BenchStack.DB, "--password", BenchStack.DB);
        for (int finished : o.scaleFinished()) {
            jobs.add(new Job("ScaleProbe " + finished, SCALE, concat(app, "--finished", finished), 40));
        }
        // Last: it leaves delayed orders Pending in the application's database, which the scale probe copies.
        jobs.add(new Job("ContainerFloor", CONTAINER, List.of("--url", stack.baseUrl(), "--user", user,
                "--password", password, "--viewer-user", VIEWER, "--viewer-password", VIEWER, "--server-pid", Long.toString(stack.serverPid()),
                "--seconds", o.quick() ? "3" : "10", "--clients", Integer.toString(o.clients())), 10));
        // Single orders against batches of 100 per request, delayed as ContainerFloor's: last too.
        jobs.add(new Job("SubmissionBatches", SUBMISSION_BATCHES, List.of("--url", stack.baseUrl(), "--user", user,
                "--password", password, "--server-pid", Long.toString(stack.serverPid()),
                "--seconds", o.quick() ? "3" : "10", "--clients", Integer.toString(o.clients())), 10));
        return jobs;
    }

    void run(Job job, Path logDir) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(BenchStack.javaExecutable(), "-cp",
                System.getProperty("java.class.path"), job.mainClass()));
        cmd.addAll(job.args());
        Path stderr = logDir.resolve(job.label().replace(' ', '-') + ".log");
        Log.info("running " + job.label() + " (log " + stderr + ")");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        List<String> resultLines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("RESULT ")) {
                    resultLines.add(line.substring("RESULT ".length()));
                    Log.info("  " + line);
                }
            }
        }
        if (!p.waitFor(job.timeoutMinutes(), TimeUnit.MINUTES)) {
            p.destroyForcibly();
            failures.put(job.label(), "no exit within " + job.timeoutMinutes() + " min");
            return;
        }
        seconds.put(job.label(), (System.nanoTime() - t0) / 1e9);
        for (String json : resultLines) {
            JsonNode n = JSON.readTree(json);
            results.put(n.path("name").asText(), n);
        }
        if (p.exitValue() != 0) {
            failures.put(job.label(), "exit " + p.exitValue() + ": " + lastLine(stderr));
        } else if (resultLines.isEmpty()) {
            failures.put(job.label(), "exited 0 without a RESULT line");
        }
    }

    void notRun(String label, String reason) {
        failures.put(label, reason);
    }

    /** A numeric field of a result, or NaN when it was not measured. */
    double field(String name, String field) {
        JsonNode n = results.get(name);
        return n == null ? Double.NaN : n.path(field).asDouble(Double.NaN);
    }

    /**
     * The login's share of a request, in server CPU-ms per answer (ContainerFloor): a GET refused after the login
     * (403) less the same refused before it (401), ÷ the authenticated GET answered 404; NaN when one is missing.
     */
    double loginShare() {
        double auth = field("ceiling.container.authenticated-get", "serverCpuMsPerAnswer");
        double anon = field("ceiling.container.unauthenticated-get", "serverCpuMsPerAnswer");
        double refused = field("ceiling.container.authenticated-refused", "serverCpuMsPerAnswer");
        return (refused - anon) / auth;
    }

    /** The value of a result, or NaN when it was not measured. */
    double value(String name) {
        JsonNode n = results.get(name);
        return n == null ? Double.NaN : n.path("value").asDouble(Double.NaN);
    }

    private static String lastLine(Path file) {
        try {
            List<String> lines = Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "(no output)" : lines.get(Math.min(lines.size() - 1,
                    lines.stream().filter(l -> l.contains("FAILED") || l.startsWith("Exception")).findFirst()
                            .map(lines::indexOf).orElse(lines.size() - 1)));
        } catch (Exception e) {
            return "(no log)";
        }
    }

    private static List<String> concat(List<String> base, Object... more) {
        List<String> out = new ArrayList<>(base);
        for (Object m : more) {
            out.add(String.valueOf(m));
        }
        return out;
    }
}
