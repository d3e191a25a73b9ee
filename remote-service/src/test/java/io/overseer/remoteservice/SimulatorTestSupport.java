package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Starts a fresh simulator on an ephemeral port with its own data directory for every test. */
abstract class SimulatorTestSupport {

    @TempDir
    Path dataDir;
    RemoteServiceSimulator simulator;
    SimulatorClient client;

    @BeforeEach
    void startSimulator() throws IOException {
        restart();
    }

    @AfterEach
    void stopSimulator() {
        if (simulator != null) {
            simulator.close();
        }
    }

    /** Stops the running simulator (if any) and starts a new one on the same data directory. */
    void restart() throws IOException {
        stopSimulator();
        simulator = RemoteServiceSimulator.start("127.0.0.1", 0, dataDir);
        client = new SimulatorClient(simulator.baseUri());
    }

    Path journal() {
        return dataDir.resolve(LedgerJournal.FILE_NAME);
    }

    /**
     * Until the service times hold {@code calls} calls in all: a call's own time is recorded once its answer is
     * written, so the client may read the stats a moment before the last one counts.
     */
    void awaitServiceTimes(long calls) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (countedServiceTimes() < calls && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(calls, countedServiceTimes());
    }

    private long countedServiceTimes() {
        long counted = 0;
        for (var operation : client.stats().get("serviceTime")) {
            counted += operation.get("count").asLong();
        }
        return counted;
    }

    /** Until the simulator has injected a fault into a request: a hanging one is then held. */
    void awaitHeld() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (client.stats().get("faultsInjected").asLong() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(1, client.stats().get("faultsInjected").asLong());
    }
}
