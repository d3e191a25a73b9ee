package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the application servers' traces go under {@code ./run --tracing} and in system tests: a {@link ZipkinNode}
 * to look at them and a {@link TraceRelay} in this JVM that takes the servers' OTLP and hands it to Zipkin, both on
 * loopback; and the application properties that turn MicroProfile Telemetry on and point it at the relay
 * ({@link #appProperties}). Without them the servers' SDK stays disabled (its default on Payara and, once
 * configure.cli adds the subsystems, on WildFly): nothing is exported and nothing is recorded.
 *
 * <p>A test: {@code new TracingBackend(layout, dir, freePort(), freePort(), log)}, {@code start()}, merge
 * {@code appProperties(name)} into its {@link AppServerConfig#withAppProperties}, read traces from
 * {@link #zipkinUrl()} ({@code GET /api/v2/traces?serviceName=...}, {@code /api/v2/trace/ID}), {@code stop()}.
 */
public final class TracingBackend implements Node {

    /** Every server reports as this service; an instance tells itself apart by {@code service.instance.id}. */
    public static final String SERVICE_NAME = "overseer";

    private final StackLayout layout;
    private final ZipkinNode zipkin;
    private final int relayPort;
    private volatile TraceRelay relay;

    /** Zipkin on {@code zipkinPort}, the relay on {@code relayPort}; Zipkin's files under {@code workDir}. */
    public TracingBackend(StackLayout layout, Path workDir, int zipkinPort, int relayPort, Path zipkinLog) {
        this.layout = layout;
        this.zipkin = new ZipkinNode(layout, workDir, zipkinPort, zipkinLog);
        this.relayPort = relayPort;
    }

    /** The stack's, on the ports of the options, in their data directory. */
    public static TracingBackend of(LauncherOptions options, StackLayout layout) {
        Path dataDir = options.dataDir();
        return new TracingBackend(layout, dataDir.resolve("zipkin"), options.zipkinPort(), options.otlpPort(),
                dataDir.resolve("logs").resolve("zipkin.log"));
    }

    @Override
    public String name() {
        return "tracing";
    }

    /** Zipkin, then the relay that needs it. */
    @Override
    public synchronized void start() throws IOException {
        if (!Files.exists(layout.zipkinServerJar())) {
            throw new IllegalStateException("no " + layout.zipkinServerJar() + ": build the launcher again (./run --rebuild)");
        }
        zipkin.start();
        if (relay == null) {
            relay = TraceRelay.start(zipkin.host().address(), relayPort, zipkin.baseUrl());
        }
    }

    /** The relay, then Zipkin. */
    @Override
    public synchronized void stop() {
        if (relay != null) {
            relay.close();
            relay = null;
        }
        zipkin.stop();
    }

    @Override
    public synchronized void kill9() {
        if (relay != null) {
            relay.close();
            relay = null;
        }
        zipkin.kill9();
    }

    @Override
    public boolean isAlive() {
        return relay != null && zipkin.isAlive();
    }

    /** Zipkin's. */
    @Override
    public long pid() {
        return zipkin.pid();
    }

    public ZipkinNode zipkin() {
        return zipkin;
    }

    /** The running relay; null before start and after stop. */
    public TraceRelay relay() {
        return relay;
    }

    /** Zipkin's API base, http://127.0.0.1:PORT. */
    public String zipkinUrl() {
        return zipkin.baseUrl();
    }

    public String uiUrl() {
        return zipkin.uiUrl();
    }

    /** Where the relay listens (known before start: the port is given), what the servers export to. */
    public String otlpEndpoint() {
        return "http://" + zipkin.host().address() + ":" + relayPort;
    }

    /**
     * The MicroProfile Config properties (system properties on every runtime) that make an application server
     * export its traces to this backend, reported as instance {@code instanceName} of {@link #SERVICE_NAME}.
     */
    public Map<String, String> appProperties(String instanceName) {
        return appProperties(otlpEndpoint(), instanceName);
    }

    /** As {@link #appProperties(String)} for the relay at {@code otlpEndpoint}. */
    static Map<String, String> appProperties(String otlpEndpoint, String instanceName) {
        Map<String, String> p = new LinkedHashMap<>();
        // MicroProfile Telemetry's SDK is off unless this says otherwise (Payara; WildFly's subsystem likewise).
        p.put("otel.sdk.disabled", "false");
        p.put("otel.traces.exporter", "otlp");
        // Both servers would default to gRPC (port 4317); the relay speaks OTLP/HTTP, to which the SDK
        // appends /v1/traces itself.
        p.put("otel.exporter.otlp.protocol", "http/protobuf");
        p.put("otel.exporter.otlp.endpoint", otlpEndpoint);
        p.put("otel.exporter.otlp.traces.endpoint", otlpEndpoint + TraceRelay.TRACES_PATH);
        // Traces only: WildFly's subsystem would export metrics and logs over OTLP too, which the relay refuses.
        p.put("otel.metrics.exporter", "none");
        p.put("otel.logs.exporter", "none");
        p.put("otel.service.name", SERVICE_NAME);
        p.put("otel.resource.attributes", "service.instance.id=" + instanceName);
        // A batch a second instead of every 5 s: a trace is in Zipkin soon after the request that made it.
        p.put("otel.bsp.schedule.delay", "1000");
        return p;
    }
}
