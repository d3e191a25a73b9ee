package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Zipkin's server (io.zipkin:zipkin-server, the runnable jar), the trace viewer of {@code ./run --tracing}: spans
 * kept in memory only (gone at every stop: it is a viewer, not a store), API and UI on one port of its host's
 * address. It reads Zipkin's formats only; the servers' OTLP reaches it through {@link TraceRelay}.
 */
public final class ZipkinNode extends ProcessNode {

    /**
     * Zipkin drops the oldest traces beyond this many spans. Its default, 500,000, does not fit the 256 MB heap
     * given here (a span of the application with its tags is ~1 KB in memory): the JVM would run out instead.
     */
    static final int MAX_SPANS = 50_000;

    private final StackLayout layout;
    private final Path workDir;
    private final int port;

    public ZipkinNode(StackLayout layout, Path workDir, int port, Path logFile) {
        super(logFile, Duration.ofSeconds(10));
        this.layout = layout;
        this.workDir = workDir.toAbsolutePath().normalize();
        this.port = port;
    }

    @Override
    public String name() {
        return "zipkin";
    }

    @Override
    public String label() {
        return "Zipkin";
    }

    @Override
    protected String awaitReady(ManagedProcess process, long logStart) {
        awaitHttpOk(process, Duration.ofSeconds(90), baseUrl() + "/health");
        return "ready at " + uiUrl();
    }

    @Override
    protected ManagedProcess launch() throws IOException {
        StaleProcesses.stopUsing(workDir.toString(), "TERM", label());
        if (!HttpPorts.isFree(host().address(), port)) {
            throw new IllegalStateException(label() + ": port " + port + " is taken by another process (ss -ltnp 'sport = :"
                    + port + "' shows which): choose another --zipkin-port");
        }
        Path tmp = Files.createDirectories(workDir.resolve("tmp"));
        // Armeria serves every port listed; naming the address with the port replaces the one the jar's own
        // configuration lists (on all interfaces) rather than adding to it. The temporary directory names the work
        // directory on the command line, where StaleProcesses finds a leftover of a launcher that was killed.
        List<String> cmd = List.of(Java.executable(), "-Xmx256m", "-Djava.io.tmpdir=" + tmp, "-jar",
                layout.zipkinServerJar().toString(),
                "--armeria.ports[0].ip=" + host().address(), "--armeria.ports[0].port=" + port);
        return startProcess(cmd, workDir, Map.of(
                "STORAGE_TYPE", "mem",
                "MEM_MAX_SPANS", Integer.toString(MAX_SPANS),
                "SELF_TRACING_ENABLED", "false",
                // Zipkin's own gRPC collector (Zipkin's protobuf, not OTLP): nothing sends it, so nothing listens.
                "COLLECTOR_GRPC_ENABLED", "false"));
    }

    public int port() {
        return port;
    }

    /** The API's base: http://ADDRESS:PORT (GET /api/v2/traces, /api/v2/trace/ID; POST /api/v2/spans). */
    public String baseUrl() {
        return "http://" + host().address() + ":" + port;
    }

    /** Where a person looks at the traces. */
    public String uiUrl() {
        return baseUrl() + "/zipkin/";
    }
}
