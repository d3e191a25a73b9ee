package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --tracing: what the servers are told with it and without it, and the ports it takes. */
class TracingOptionTest {

    private static Stack stack(String... args) {
        LauncherOptions options = LauncherOptions.parse(args, Map.of("OVERSEER_DATA_DIR", "/tmp/ovs"));
        return new Stack(options, StackLayout.fromDirectory(Path.of("/tmp/stack")));
    }

    @Test
    void withoutTheFlagNoServerHearsOfTelemetry() {
        Stack stack = stack("--instances", "2");
        assertTrue(stack.tracing().isEmpty());
        for (AppServerNode server : stack.appServers()) {
            assertTrue(server.config().appProperties().keySet().stream().noneMatch(k -> k.startsWith("otel.")),
                    server.config().appProperties().toString());
        }
        assertFalse(stack.summary().contains("Zipkin"));
    }

    @Test
    void withItEveryInstanceExportsToTheRelayAsItself() {
        Stack stack = stack("--tracing", "--instances", "2", "--otlp-port", "14318", "--zipkin-port", "19411");
        Map<String, String> second = stack.appServers().get(1).config().appProperties();
        assertEquals("false", second.get("otel.sdk.disabled"));
        assertEquals("http/protobuf", second.get("otel.exporter.otlp.protocol"));
        assertEquals("http://127.0.0.1:14318/v1/traces", second.get("otel.exporter.otlp.traces.endpoint"));
        assertEquals("service.instance.id=payara-2", second.get("otel.resource.attributes"));
        assertTrue(stack.summary().contains("http://127.0.0.1:19411/zipkin/"), stack.summary());
    }

    @Test
    void aUsersOwnOtelPropertyWins() {
        Stack stack = stack("--tracing", "-D", "otel.traces.sampler=parentbased_traceidratio",
                "-Dotel.exporter.otlp.traces.endpoint=http://collector:4318/v1/traces");
        Map<String, String> p = stack.appServer().config().appProperties();
        assertEquals("parentbased_traceidratio", p.get("otel.traces.sampler"));
        assertEquals("http://collector:4318/v1/traces", p.get("otel.exporter.otlp.traces.endpoint"));
    }

    @Test
    void itsPortsMustBeFree() {
        assertThrows(UsageException.class, () -> LauncherOptions.parse(
                new String[] {"--tracing", "--zipkin-port", "8090"}, Map.of()));
        assertThrows(UsageException.class, () -> LauncherOptions.parse(
                new String[] {"--tracing", "--otlp-port", "9411"}, Map.of()));
        assertThrows(UsageException.class, () -> LauncherOptions.parse(
                new String[] {"--tracing", "--runtime", "wildfly", "--otlp-port", "9990"}, Map.of()));
    }
}
