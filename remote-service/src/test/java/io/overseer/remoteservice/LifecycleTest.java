package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LifecycleTest extends SimulatorTestSupport {

    @Test
    void closeDoesNotWaitForHangingRequests() throws Exception {
        client.putFault("{\"operation\":\"*\",\"mode\":\"hang\"}");
        HttpRequest hanging = client.operationRequest("/operations/charge-payment", "key-1",
                "{\"orderId\":\"order-1\"}", Duration.ofSeconds(30));
        CompletableFuture<Void> call = CompletableFuture.runAsync(() -> client.send(hanging));
        awaitHeld();

        long started = System.nanoTime();
        simulator.close();
        long closeMs = (System.nanoTime() - started) / 1_000_000;

        assertTrue(closeMs < 3_000, "close took " + closeMs + " ms");
        // The hung client gets no answer: its connection is dropped.
        ExecutionException failure = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
        assertTrue(failure.getCause().getCause() instanceof IOException, failure.toString());
    }

    @Test
    void optionsComeFromFlagsThenEnvironmentThenDefaults() {
        SimulatorOptions defaults = SimulatorOptions.parse(new String[0], Map.of());
        assertEquals(new SimulatorOptions("127.0.0.1", 8090, Path.of("./simulator-data")), defaults);

        Map<String, String> env = Map.of("SIMULATOR_PORT", "9000", "SIMULATOR_DATA_DIR", "/tmp/sim");
        SimulatorOptions fromEnv = SimulatorOptions.parse(new String[] {"--host", "0.0.0.0"}, env);
        assertEquals(new SimulatorOptions("0.0.0.0", 9000, Path.of("/tmp/sim")), fromEnv);

        SimulatorOptions flags = SimulatorOptions.parse(new String[] {"--port=0", "--data-dir", "d"}, env);
        assertEquals(0, flags.port());
        assertEquals(Path.of("d"), flags.dataDir());
    }

    @Test
    void badOptionsAreRefused() {
        assertRefused("--port", "x");
        assertRefused("--port", "70000");
        assertRefused("--verbose", "1");
        assertRefused("--host");
        assertRefused("--data-dir", " ");
    }

    private static void assertRefused(String... args) {
        assertThrows(IllegalArgumentException.class, () -> SimulatorOptions.parse(args, Map.of()));
    }
}
