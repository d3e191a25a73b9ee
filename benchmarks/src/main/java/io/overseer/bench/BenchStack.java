package io.overseer.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The stack the benchmark measures, started with the project's launcher on the bench's own ports and data
 * directory. The launcher is given a staged stack directory (--stack-dir) instead of its own: the same
 * Payara Micro, adapter, Artemis and simulator (symlinks), a copy of this worktree's WAR with the no-op
 * agent's jar added to WEB-INF/lib, a post-boot file with two lines more that keep Payara's HTTP
 * listener and its Hazelcast port on 127.0.0.1, and a broker.xml with one queue more for ArtemisCeiling.
 * No change to the launcher is needed.
 */
final class BenchStack implements AutoCloseable {

    static final String DB = "overseer";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    private static final String LOOPBACK_ONLY = """

            # ./bench: every listener on loopback only (Payara Micro binds all interfaces by default)
            set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address=127.0.0.1
            set-hazelcast-configuration --interfaces=127.0.0.1 --dynamic=true
            """;

    /** ArtemisCeiling's own queue (empty, used by nothing else); the "#" security setting lets operators use it. */
    static final String CEILING_QUEUE_NAME = "bench.ceiling";
    private static final String CEILING_QUEUE = "   <address name=\"" + CEILING_QUEUE_NAME + "\"><anycast><queue name=\""
            + CEILING_QUEUE_NAME + "\"/></anycast></address>\n      ";

    private final BenchOptions options;
    private final Path runDir;
    private final Path launcherLog;
    private Process launcher;
    private long payaraPid = -1;

    BenchStack(BenchOptions options, Path runDir) {
        this.options = options;
        this.runDir = runDir;
        this.launcherLog = runDir.resolve("launcher.log");
    }

    /** Stages the stack directory and workflow file, starts the launcher and waits for "Overseer is running". */
    void start() throws Exception {
        Path root = options.root();
        Path launcherJar = root.resolve("launcher/target/overseer-launcher.jar");
        Path builtStack = root.resolve("launcher/target/stack");
        Path war = root.resolve("micro-war/target/overseer.war");
        Path agentJar = root.resolve("benchmarks/target/overseer-benchmarks-noop-agent.jar");
        List<String> missing = Stream.of(launcherJar, builtStack.resolve("payara-micro.jar"), war, agentJar)
                .filter(p -> !Files.exists(p)).map(Path::toString).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("not built (run mvn -B -DskipTests install): missing " + missing);
        }
        PortCheck.requireFree(options.ports());
        Path stack = stage(builtStack, war, agentJar);
        Path workflows = runDir.resolve("workflows.json");
        Files.writeString(workflows, "{\"workflows\":[{\"name\":\"noop\",\"steps\":[{\"name\":\"noop\"}]}]}\n");

        List<String> cmd = new ArrayList<>(List.of(javaExecutable(), "-jar", launcherJar.toString(),
                "--stack-dir", stack.toString(),
                "--data-dir", runDir.resolve("data").toString(),
                "--http-port", Integer.toString(options.httpPort()),
                "--simulator-port", Integer.toString(options.simulatorPort()),
                "--broker-port", Integer.toString(options.brokerPort()),
                "--console-port", Integer.toString(options.consolePort()),
                "--db-port", Integer.toString(options.dbPort()),
                "-D", "overseer.workflows.file=" + workflows,
                "-D", "hazelcast.socket.bind.any=false"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(launcherLog.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        // The launcher reads OVERSEER_* variables as defaults: none of a ./run's may leak into the bench's stack.
        pb.environment().keySet().removeIf(k -> k.startsWith("OVERSEER_"));
        launcher = pb.start();
        Files.writeString(options.root().resolve("target/bench/launcher.pid"), launcher.pid() + "\n");
        Log.info("launcher pid " + launcher.pid() + ", log " + launcherLog);
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
        payaraPid = launcher.toHandle().descendants()
                .filter(h -> h.info().commandLine().map(c -> c.contains("payara-micro.jar")).orElse(false))
                .mapToLong(ProcessHandle::pid).findFirst()
                .orElseThrow(() -> new IllegalStateException("Payara Micro's process not found under the launcher"));
        Log.info("stack ready; Payara Micro pid " + payaraPid);
    }

    private Path stage(Path builtStack, Path war, Path agentJar) throws IOException {
        Path stack = runDir.resolve("stack");
        Files.createDirectories(stack.resolve("config"));
        try (Stream<Path> entries = Files.list(builtStack)) {
            for (Path p : entries.toList()) {
                String name = p.getFileName().toString();
                if (!name.equals("overseer.war") && !name.equals("config")) {
                    Files.createSymbolicLink(stack.resolve(name), p.toAbsolutePath());
                }
            }
        }
        String brokerXml = Files.readString(builtStack.resolve("config/broker.xml"));
        if (!brokerXml.contains("</addresses>")) {
            throw new IllegalStateException("broker.xml has no </addresses> to add the ceiling's queue to");
        }
        Files.writeString(stack.resolve("config/broker.xml"), brokerXml.replace("</addresses>", CEILING_QUEUE + "</addresses>"));
        Files.writeString(stack.resolve("config/post-boot.asadmin"),
                Files.readString(builtStack.resolve("config/post-boot.asadmin")) + LOOPBACK_ONLY);
        try (Stream<Path> config = Files.list(builtStack.resolve("config"))) {
            for (Path p : config.toList()) {
                if (!Files.exists(stack.resolve("config").resolve(p.getFileName()))) {
                    Files.copy(p, stack.resolve("config").resolve(p.getFileName())); // e.g. http-closed/-open.asadmin
                }
            }
        }
        Path benchWar = stack.resolve("overseer.war");
        Files.copy(war, benchWar);
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + benchWar.toUri()), Map.of())) {
            Files.copy(agentJar, zip.getPath("/WEB-INF/lib/overseer-bench-noop-agent.jar"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        return stack;
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

    long payaraPid() {
        return payaraPid;
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

    /** SIGTERM to the launcher (it stops Payara, the simulator, Artemis and PostgreSQL in order), then SIGKILL. */
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
