package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTest {

    private static String summary(String... args) {
        LauncherOptions options = LauncherOptions.parse(args, Map.of("OVERSEER_DATA_DIR", "/tmp/ovs"));
        return new Stack(options, StackLayout.fromDirectory(Path.of("/tmp/stack"))).summary();
    }

    /** Word for word what ./run printed before --instances existed, with the operator console and its demo users. */
    @Test
    void oneInstancePrintsWhatItAlwaysDid() {
        assertEquals("""

                ==============================================================================
                  Overseer is running
                ==============================================================================
                  Console            http://localhost:8080/console/   (demo/demo acts, viewer/viewer reads)
                  API                http://localhost:8080/api/orders   (HTTP Basic, e.g. curl -u demo:demo)
                  OpenAPI            http://localhost:8080/openapi
                  Health             http://localhost:8080/health/ready
                  Artemis console    http://localhost:8161/console   (login demo/demo)
                  Broker             tcp://127.0.0.1:61616
                  Simulator          http://localhost:8090   (GET /health)
                  JDBC               jdbc:postgresql://127.0.0.1:55432/overseer   (user overseer / password overseer)
                  Logs               /tmp/ovs/logs
                  Data               /tmp/ovs

                  Local demo users demo/demo (every role) and viewer/viewer (read only); created by ./run only, never a default elsewhere.
                  Payara Micro is restarted automatically if it dies.
                  Ctrl-C stops everything.
                ==============================================================================
                """, summary());
    }

    @Test
    void severalInstancesAreEachListed() {
        String text = summary("--instances", "3", "--http-port", "9000");
        assertTrue(text.contains("Overseer is running: 3 instances, one database and one broker"), text);
        assertTrue(text.contains("  API payara         http://localhost:9000/api/orders   (HTTP Basic"), text);
        assertTrue(text.contains("  API payara-2       http://localhost:9001/api/orders\n"), text);
        assertTrue(text.contains("  API payara-3       http://localhost:9002/api/orders\n"), text);
        assertTrue(text.contains("  Console            http://localhost:9000/console/   (demo/demo acts, viewer/viewer reads;"
                + " the same on every instance)\n"), text);
        assertTrue(text.contains("Each instance is restarted automatically if it dies; the others keep serving"), text);
    }

    @Test
    void aBindAddressIsWhereTheInstancesAreReached() {
        String text = summary("--instances", "2", "--bind-address", "127.0.0.2");
        assertTrue(text.contains("http://127.0.0.2:8081/api/orders"), text);
        assertTrue(text.contains("http://127.0.0.2:8080/health/ready"), text);
        assertTrue(text.contains("http://127.0.0.2:8080/console/"), text);
    }

    @Test
    void aReplicatedPairShowsBothNodesAndTheClientUrl() {
        String text = summary("--broker-ha");
        assertTrue(text.contains("  Broker primary     tcp://127.0.0.1:61616   console http://localhost:8161/console"), text);
        assertTrue(text.contains("  Broker backup      tcp://127.0.0.1:61617   console http://localhost:8162/console"), text);
        assertTrue(text.contains("  Broker client URL  (tcp://127.0.0.1:61616,tcp://127.0.0.1:61617)?ha=true"
                + "&reconnectAttempts=-1&retryInterval=200&callTimeout=5000&callFailoverTimeout=5000\n"), text);
        assertTrue(text.contains("never onto a stale journal"), text);
    }
}
