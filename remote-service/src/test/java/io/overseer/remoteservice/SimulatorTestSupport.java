package io.overseer.remoteservice;

import java.io.IOException;
import java.nio.file.Path;
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
}
