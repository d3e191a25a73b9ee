package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The remote-service simulator (the pattern's remote service), as its own JVM so tests can kill it. */
public final class SimulatorNode extends ProcessNode {


    private final StackLayout layout;
    private final Path dataDir;
    private final int port;
    private final List<String> extraArgs;

    public SimulatorNode(StackLayout layout, Path dataDir, int port, Path logFile) {
        this(layout, dataDir, port, logFile, List.of());
    }

    /** {@code extraArgs} are appended to the simulator's command line (e.g. failure settings in tests). */
    public SimulatorNode(StackLayout layout, Path dataDir, int port, Path logFile, List<String> extraArgs) {
        super(logFile, Duration.ofSeconds(15));
        this.layout = layout;
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
    }

    @Override
    public String name() {
        return "simulator";
    }

    @Override
    public String label() {
        return "Simulator";
    }

    @Override
    protected String awaitReady(ManagedProcess process, long logStart) {
        awaitHttpOk(process, Duration.ofSeconds(60), baseUrl() + "/health");
        return "ready at " + baseUrl();
    }

    @Override
    protected ManagedProcess launch() throws IOException {
        StaleProcesses.stopUsing(dataDir.toString(), "TERM", "simulator");
        Files.createDirectories(dataDir);
        // TCP_NODELAY: the simulator sets it itself too; on the command line it is visible in ps and holds for
        // a simulator jar built before that (see RemoteServiceSimulator.NODELAY: 40 ms per call without it).
        List<String> cmd = new ArrayList<>(List.of(Java.executable(), "-Xmx256m", "-Dsun.net.httpserver.nodelay=true", "-jar",
                layout.remoteServiceJar().toString(),
                "--host", host().address(), "--port", Integer.toString(port), "--data-dir", dataDir.toString()));
        cmd.addAll(extraArgs);
        return startProcess(cmd, dataDir, Map.of());
    }

    public int port() {
        return port;
    }

    /** http://ADDRESS:PORT (its host's address: 127.0.0.1 unless placed), no trailing slash. */
    public String baseUrl() {
        return "http://" + host().address() + ":" + port;
    }
}
