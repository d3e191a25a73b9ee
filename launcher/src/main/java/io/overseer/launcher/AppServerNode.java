package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Payara Micro running the Overseer WAR at context root "/". Resources (adapter, connection factory,
 * datasource) come from server-config's post-boot command file, filled in here; the .rar is deployed by
 * that file so it exists before the WAR's MDBs activate. No --rootdir: a reused one redeploys on start.
 */
public final class AppServerNode implements Node {

    private static final Logger LOG = LoggerFactory.getLogger(AppServerNode.class);
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    /** The single instance's name, and the first of several. */
    public static final String DEFAULT_NAME = "payara";

    private final StackLayout layout;
    private final String name;
    private final String label;
    private final Path workDir;
    private final Path logFile;
    private volatile AppServerConfig config;
    private volatile ManagedProcess process;
    private final List<RealmUser> users = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** {@code workDir} holds the generated post-boot file and Payara's temp directory (wiped at start). */
    public AppServerNode(StackLayout layout, Path workDir, Path logFile, AppServerConfig config) {
        this(layout, DEFAULT_NAME, workDir, logFile, config);
    }

    /** One of several instances, told apart by {@code name} in the launcher's log (see {@link AppInstance}). */
    public AppServerNode(StackLayout layout, String name, Path workDir, Path logFile, AppServerConfig config) {
        this.layout = layout;
        this.name = name;
        this.label = DEFAULT_NAME.equals(name) ? "Payara Micro" : "Payara Micro " + name;
        this.workDir = workDir.toAbsolutePath().normalize();
        this.logFile = logFile.toAbsolutePath();
        this.config = config;
    }

    @Override
    public String name() {
        return name;
    }

    /** "Payara Micro", or "Payara Micro payara-2" for the second instance: how log lines name it. */
    public String label() {
        return label;
    }

    /** Launches under the lock, waits outside it, so stop() can interrupt a start that hangs. */
    @Override
    public void start() throws IOException {
        long t0 = System.nanoTime();
        ManagedProcess p = launch();
        String readyUrl = baseUrl() + "/health/ready";
        // Payara answers UP with no checks at all once any application (the resource adapter) has started:
        // ready means the application's own checks are in the answer, and UP (docs/health.md).
        Wait.until(label, READY_TIMEOUT, () -> Wait.httpOkContaining(readyUrl, "\"application\""), p::isAlive,
                () -> p.tail(60));
        LOG.info("{} ready at {} (pid {}) in {} ms", label, baseUrl(), p.pid(), (System.nanoTime() - t0) / 1_000_000);
    }

    private synchronized ManagedProcess launch() throws IOException {
        if (process != null && process.isAlive()) {
            return process;
        }
        StaleProcesses.stopUsing(workDir.toString(), "TERM", label);
        Path tmp = workDir.resolve("tmp");
        deleteTree(tmp); // runtime dirs of a killed instance would pile up otherwise
        Files.createDirectories(tmp);
        Path postBoot = writePostBoot();
        // The port opens only once the WAR is deployed: before that, Payara's readiness says UP with no checks.
        Path httpClosed = writeListenerCommands(layout.httpClosedTemplate(), "http-closed.asadmin");
        Path httpOpen = writeListenerCommands(layout.httpOpenTemplate(), "http-open.asadmin");

        List<String> cmd = command(config, tmp, postBoot, httpClosed, httpOpen);
        // glibc gives each of the server's ~300 threads' allocations arenas of their own (up to 8 per
        // core), which holds memory the JVM no longer uses: two keep the resident size near what the
        // JVM itself accounts for (the RSS target of BENCHMARKS.md).
        process = ManagedProcess.start(name(), cmd, workDir, logFile, Map.of("MALLOC_ARENA_MAX", "2"));
        return process;
    }

    /** The Payara Micro command line; package-private for tests. */
    List<String> command(AppServerConfig c, Path tmp, Path postBoot, Path httpClosed, Path httpOpen) {
        List<String> cmd = new ArrayList<>(List.of(Java.executable(), "-Xmx" + c.maxHeap(),
                "-Djava.io.tmpdir=" + tmp));
        if (c.remoteServiceUrl() != null) {
            cmd.add("-Doverseer.remote-service.url=" + c.remoteServiceUrl());
        }
        if (c.bindAddress() != null) {
            cmd.add("-Dhazelcast.socket.bind.any=false"); // with the post-boot file's interface: no port on *
        }
        c.appProperties().forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-jar", layout.payaraMicroJar().toString(),
                "--nocluster",
                "--port", Integer.toString(c.httpPort()),
                "--addlibs", layout.postgresqlJar().toString(),
                "--prebootcommandfile", httpClosed.toString(),
                "--postbootcommandfile", postBoot.toString(),
                "--postdeploycommandfile", httpOpen.toString(),
                "--deploy", layout.war().toString(),
                "--contextroot", "/"));
        return cmd;
    }

    /** Fills in the post-boot template and writes it to the work directory; package-private for tests. */
    Path writePostBoot() throws IOException {
        Path template = layout.postBootTemplate();
        String text = Templates.substitute(Files.readString(template), config.postBootValues(layout.rar().toString()));
        Set<String> left = Templates.unresolved(text);
        if (!left.isEmpty()) {
            LOG.warn("post-boot.asadmin template has placeholders the launcher does not know: {}", left);
        }
        Path out = workDir.resolve("post-boot.asadmin");
        // Payara Micro keeps its transaction log in its temporary instance root, lost at every start. Kept
        // here instead, a restarted server recovers in-doubt JMS branches a kill -9 left in the broker.
        Path txLog = Files.createDirectories(workDir.resolve("tx-log"));
        text += System.lineSeparator() + "set configs.config.server-config.transaction-service.tx-log-dir="
                + Templates.asadminEscape(txLog.toString()) + System.lineSeparator();
        if (config.bindAddress() != null) {
            // Payara Micro listens on every interface, its data grid too (even with --nocluster).
            String address = config.bindAddress();
            text += "set configs.config.server-config.network-config.network-listeners.network-listener"
                    + ".http-listener.address=" + address + System.lineSeparator()
                    + "set-hazelcast-configuration --interfaces=" + address + " --dynamic=true" + System.lineSeparator();
        }
        for (RealmUser user : users) {
            text += user.postBootCommand(workDir.resolve("secrets")) + System.lineSeparator();
        }
        Files.writeString(out, text);
        return out;
    }

    private Path writeListenerCommands(Path template, String name) throws IOException {
        Path out = workDir.resolve(name);
        Files.writeString(out, Templates.substitute(Files.readString(template), Map.of("HTTP_LISTENER", "http-listener")));
        return out;
    }

    /** SIGTERM (Payara undeploys and closes pools), up to 30 s, then SIGKILL. */
    @Override
    public synchronized void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(30));
            process = null;
            LOG.info("{} stopped", label);
        }
    }

    @Override
    public synchronized void kill9() {
        if (process != null) {
            process.kill9();
        }
    }

    @Override
    public boolean isAlive() {
        ManagedProcess p = process;
        return p != null && p.isAlive();
    }

    @Override
    public long pid() {
        ManagedProcess p = process;
        return p != null && p.isAlive() ? p.pid() : -1;
    }

    /** The running process, for the supervisor to watch; null before start or after stop. */
    ManagedProcess process() {
        return process;
    }

    /** Adds a user of the server's file realm; takes effect at the next start or restart. */
    public void addRealmUser(RealmUser user) {
        users.add(user);
    }

    /** Takes effect at the next start or restart. */
    public void reconfigure(AppServerConfig newConfig) {
        this.config = newConfig;
    }

    public AppServerConfig config() {
        return config;
    }

    /** Where the server's output goes (its whole log, for a test that reports what it saw). */
    public Path logFile() {
        return logFile;
    }

    public int port() {
        return config.httpPort();
    }

    /** http://127.0.0.1:PORT (or the bind address), no trailing slash; the API is under /api. */
    public String baseUrl() {
        AppServerConfig c = config;
        return "http://" + (c.bindAddress() == null ? "127.0.0.1" : c.bindAddress()) + ":" + c.httpPort();
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
