package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The remote-service simulator (the pattern's remote service), as its own JVM so tests can kill it. */
public final class SimulatorNode implements Node {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatorNode.class);

    private final StackLayout layout;
    private final Path dataDir;
    private final int port;
    private final Path logFile;
    private final List<String> extraArgs;
    private ManagedProcess process;

    public SimulatorNode(StackLayout layout, Path dataDir, int port, Path logFile) {
        this(layout, dataDir, port, logFile, List.of());
    }

    /** {@code extraArgs} are appended to the simulator's command line (e.g. failure settings in tests). */
    public SimulatorNode(StackLayout layout, Path dataDir, int port, Path logFile, List<String> extraArgs) {
        this.layout = layout;
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.port = port;
        this.logFile = logFile.toAbsolutePath();
        this.extraArgs = List.copyOf(extraArgs);
    }

    @Override
    public String name() {
        return "simulator";
    }

    /** Launches under the lock, waits outside it, so stop() can interrupt a start that hangs. */
    @Override
    public void start() throws IOException {
        long t0 = System.nanoTime();
        ManagedProcess p = launch();
        Wait.until("Simulator", Duration.ofSeconds(60), () -> Wait.httpStatus(baseUrl() + "/health") == 200,
                p::isAlive, () -> p.tail(40));
        LOG.info("Simulator ready at {} (pid {}) in {} ms", baseUrl(), p.pid(), (System.nanoTime() - t0) / 1_000_000);
    }

    private synchronized ManagedProcess launch() throws IOException {
        if (process != null && process.isAlive()) {
            return process;
        }
        StaleProcesses.stopUsing(dataDir.toString(), "TERM", "simulator");
        Files.createDirectories(dataDir);
        List<String> cmd = new ArrayList<>(List.of(Java.executable(), "-Xmx256m", "-jar",
                layout.remoteServiceJar().toString(),
                "--host", "127.0.0.1", "--port", Integer.toString(port), "--data-dir", dataDir.toString()));
        cmd.addAll(extraArgs);
        process = ManagedProcess.start(name(), cmd, dataDir, logFile, Map.of());
        return process;
    }

    @Override
    public synchronized void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(15));
            process = null;
            LOG.info("Simulator stopped");
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

    public int port() {
        return port;
    }

    /** http://127.0.0.1:PORT, no trailing slash. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }
}
