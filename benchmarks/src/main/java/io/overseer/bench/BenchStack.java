package io.overseer.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The stack the benchmark measures, started with the project's launcher on the bench's own ports and data
 * directory, with the runtime --runtime chose and a staged stack directory ({@link StackStaging}).
 */
final class BenchStack implements AutoCloseable {

    static final String DB = "overseer";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    private final BenchOptions options;
    private final Path runDir;
    private final Path launcherLog;
    private Process launcher;
    private long serverPid = -1;
    private long serverReadyMillis = -1;

    BenchStack(BenchOptions options, Path runDir) {
        this.options = options;
        this.runDir = runDir;
        this.launcherLog = runDir.resolve("launcher.log");
    }

    /** Stages the stack directory and workflow file, starts the launcher and waits for "Overseer is running". */
    void start() throws Exception {
        Path root = options.root();
        Path launcherJar = root.resolve("launcher/target/overseer-launcher.jar");
        BenchRuntime runtime = options.runtime();
        Path stack = stage(launcherJar);
        Path workflows = runDir.resolve("workflows.json");
        Files.writeString(workflows, workflowsJson());

        ProcessBuilder pb = new ProcessBuilder(command(launcherJar, stack, workflows)).directory(root.toFile())
                .redirectErrorStream(true).redirectOutput(launcherLog.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        // The launcher reads OVERSEER_* variables as defaults: none of a ./run's may leak into the bench's stack.
        pb.environment().keySet().removeIf(k -> k.startsWith("OVERSEER_"));
        launcher = pb.start();
        Files.writeString(options.root().resolve("target/bench/launcher.pid"), launcher.pid() + "\n");
        Log.info("launcher pid " + launcher.pid() + ", log " + launcherLog);
        awaitRunning();
        serverPid = launcher.toHandle().descendants()
                .filter(h -> commandLine(h).contains(runtime.commandLineMarker()))
                .mapToLong(ProcessHandle::pid).findFirst()
                .orElseThrow(() -> new IllegalStateException(runtime.label() + "'s process (" + runtime.commandLineMarker()
                        + ") not found under the launcher"));
        serverReadyMillis = readyMillis(Files.readString(launcherLog), runtime);
        Log.info("stack ready; " + runtime.label() + " pid " + serverPid + ", ready in " + serverReadyMillis + " ms");
    }

    /** The stack directory staged for this run, once everything it is staged from is built and the ports are free. */
    private Path stage(Path launcherJar) throws Exception {
        Path root = options.root();
        Path builtStack = root.resolve("launcher/target/stack");
        BenchRuntime runtime = options.runtime();
        Path application = runtime.runsEar() ? root.resolve("ear/target/overseer.ear") : root.resolve("micro-war/target/overseer.war");
        Path server = builtStack.resolve(switch (runtime) {
            case PAYARA_MICRO -> "payara-micro.jar";
            case PAYARA_SERVER -> "payara6";
            case WILDFLY -> "wildfly-" + Machine.wildflyVersion(builtStack);
        });
        Path agentJar = root.resolve("benchmarks/target/overseer-benchmarks-noop-agent.jar");
        List<String> missing = Stream.of(launcherJar, server, application, agentJar)
                .filter(p -> !Files.exists(p)).map(Path::toString).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("not built (run ./mvnw -B -DskipTests install): missing " + missing);
        }
        PortCheck.requireFree(options.allPorts());
        return StackStaging.stage(runtime, builtStack, runDir.resolve("stack"), application, agentJar);
    }

    /** The launcher's command line: the bench's ports, data directory and workflows, and the options it passes on. */
    private List<String> command(Path launcherJar, Path stack, Path workflows) {
        List<String> cmd = new ArrayList<>(List.of(javaExecutable(), "-jar", launcherJar.toString(),
                "--stack-dir", stack.toString(),
                "--runtime", options.runtime().id(),
                "--data-dir", runDir.resolve("data").toString(),
                "--http-port", Integer.toString(options.httpPort()),
                "--simulator-port", Integer.toString(options.simulatorPort()),
                "--broker-port", Integer.toString(options.brokerPort()),
                "--console-port", Integer.toString(options.consolePort()),
                "--db-port", Integer.toString(options.dbPort()),
                "--server-jit", options.serverJit(),
                "-D", "overseer.workflows.file=" + workflows));
        for (String property : options.appProperties()) {
            cmd.addAll(List.of("-D", property));
        }
        if (options.traced()) {
            // ./run --tracing: Zipkin and the relay beside the stack, every span exported (docs/tracing.md).
            cmd.addAll(List.of("--tracing", "--zipkin-port", Integer.toString(options.zipkinPort()),
                    "--otlp-port", Integer.toString(options.otlpPort())));
            if (options.tracing() < 1) {
                cmd.addAll(List.of("-D", "otel.traces.sampler=parentbased_traceidratio",
                        "-D", "otel.traces.sampler.arg=" + options.tracing()));
            }
        }
        if (options.runtime() == BenchRuntime.PAYARA_MICRO) {
            // With the post-boot file's interface, Micro's data grid stays on loopback. Payara Server's node
            // sets this property itself; WildFly has no Hazelcast.
            cmd.addAll(List.of("-D", "hazelcast.socket.bind.any=false"));
        }
        return cmd;
    }

    /** Waits for the launcher's "Overseer is running", failing with its log's tail if it exits first. */
    private void awaitRunning() throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Files.readString(launcherLog).contains("Overseer is running")) {
            if (!launcher.isAlive()) {
                throw new IllegalStateException("the stack did not start (launcher exited " + launcher.exitValue()
                        + "); last lines of " + launcherLog + ":\n" + tail(launcherLog, 30));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the stack was not ready within " + START_TIMEOUT.toMinutes()
                        + " min; see " + launcherLog);
            }
            Thread.sleep(500);
        }
    }

    /**
     * The workflows the bench's server loads beside the built-in three-step {@code order}: {@code noop} for the
     * overhead phase, {@code single-charge} (one call, {@code onExhausted: error}) for --bulk's orders in Error.
     */
    static String workflowsJson() {
        return "{\"workflows\":[{\"name\":\"noop\",\"steps\":[{\"name\":\"noop\"}]}," + BulkPhase.WORKFLOW_JSON + "]}\n";
    }

    /** The launcher's "<label> ready at URL (pid N) in M ms" line: the server's own start, M; -1 if absent. */
    static long readyMillis(String launcherLog, BenchRuntime runtime) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(runtime.label())
                + " ready at \\S+ \\(pid \\d+\\) in (\\d+) ms").matcher(launcherLog);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + options.httpPort();
    }

    String simulatorUrl() {
        return "http://127.0.0.1:" + options.simulatorPort();
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + options.dbPort() + "/" + DB;
    }

    String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + options.dbPort() + "/" + database;
    }

    /**
     * A process's whole command line: /proc's, as ProcessHandle's can be cut short (Payara Server's, with
     * its long class path, did not show its main class).
     */
    private static String commandLine(ProcessHandle process) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            return new String(raw, java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException | RuntimeException gone) {
            return process.info().commandLine().orElse("");
        }
    }

    /** The application server's JVM (found by {@link BenchRuntime#commandLineMarker}). */
    long serverPid() {
        return serverPid;
    }

    /** The server's start as the launcher measured it (launch to ready), in ms; -1 when its log did not say. */
    long serverReadyMillis() {
        return serverReadyMillis;
    }

    /** Every process of the stack: the launcher and its descendants (the servers run in their own sessions). */
    List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        if (launcher != null) {
            pids.add(launcher.pid());
            launcher.toHandle().descendants().forEach(h -> pids.add(h.pid()));
        }
        pids.addAll(postgresPids());
        return pids;
    }

    /**
     * The processes whose CPU a phase's costs count, in {@link CostMeter#PROCESSES} order: the application server,
     * the broker, PostgreSQL's postmaster and the simulator, looked up now (a restarted one has a new pid); -1 for
     * one not found.
     */
    long[] costPids() {
        List<ProcessHandle> tree = launcher == null ? List.of() : launcher.toHandle().descendants().toList();
        List<Long> postgres = postgresPids();
        return new long[] {
            find(tree, options.runtime().commandLineMarker()),
            find(tree, "org.apache.activemq.artemis.boot.Artemis"),
            postgres.isEmpty() ? -1 : postgres.get(0),
            find(tree, "remote-service.jar")};
    }

    private static long find(List<ProcessHandle> tree, String marker) {
        return tree.stream().filter(h -> commandLine(h).contains(marker)).mapToLong(ProcessHandle::pid).findFirst().orElse(-1);
    }

    /** PostgreSQL is started by pg_ctl and is no descendant of the launcher: its postmaster.pid says who it is. */
    private List<Long> postgresPids() {
        Path pidFile = runDir.resolve("data/postgres/postmaster.pid");
        try {
            long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
            List<Long> out = new ArrayList<>(List.of(pid));
            ProcessHandle.of(pid).ifPresent(h -> h.children().forEach(c -> out.add(c.pid())));
            return out;
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** SIGTERM to the launcher (it stops the server, the simulator, Artemis and PostgreSQL in order), then SIGKILL. */
    @Override
    public void close() {
        Process p = launcher;
        if (p == null || !p.isAlive()) {
            return;
        }
        Log.info("stopping the stack (launcher pid " + p.pid() + ")");
        List<ProcessHandle> tree = new ArrayList<>(p.toHandle().descendants().toList());
        p.destroy();
        try {
            if (!p.waitFor(150, java.util.concurrent.TimeUnit.SECONDS)) {
                Log.info("the launcher did not stop within 150 s: killing it and its children");
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        Log.info("stack stopped");
    }

    /** A launcher left by an earlier bench that was killed: stopped by its recorded pid, if it is really ours. */
    static void stopLeftover(Path root) throws IOException {
        Path pidFile = root.resolve("target/bench/launcher.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        long pid = Long.parseLong(Files.readString(pidFile).trim());
        Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(x -> x.info().commandLine().map(c -> c.contains("overseer-launcher.jar")
                        && c.contains(root.resolve("target/bench").toString())).orElse(false));
        if (h.isPresent()) {
            Log.info("stopping the launcher an earlier ./bench left running (pid " + pid + ")");
            h.get().destroy();
            h.get().onExit().orTimeout(150, java.util.concurrent.TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
        Files.delete(pidFile);
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
