package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.BrokerNode;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import java.time.Duration;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The broker fails while orders flow in over REST: frozen (SIGSTOP) for 15 s, or killed (SIGKILL) and
 * started again from its instance folder after 5 s. What must hold is in {@link OutageScenario}.
 */
class BrokerOutageIT extends OutageScenario {

    private static final Logger LOG = Logger.getLogger(BrokerOutageIT.class.getName());
    private static final Duration FREEZE = Duration.ofSeconds(15);
    private static final Duration DOWN = Duration.ofSeconds(5);

    private volatile boolean brokerFrozen;

    @AfterEach
    void restoreBroker() throws java.io.IOException {
        BrokerNode broker = TestStack.broker();
        // The broker is shared by every system test of this JVM: leave it running, whatever happened.
        if (brokerFrozen) {
            signalTree(broker.pid(), "CONT");
            brokerFrozen = false;
        }
        if (!broker.isAlive()) {
            broker.restart();
        }
    }

    @Test
    void brokerFrozenFor15SecondsDelaysNoSubmissionAndProcessingResumes() throws Exception {
        runThrough("broker-frozen", "Broker SIGSTOP for " + FREEZE.toSeconds() + " s", () -> {
            BrokerNode broker = TestStack.broker();
            signalTree(broker.pid(), "STOP");
            brokerFrozen = true;
            LOG.info("Broker (pid " + broker.pid() + ") frozen with SIGSTOP");
            Poll.sleep(FREEZE.toMillis()); // the outage's length: part of the scenario, not a wait for a condition
            signalTree(broker.pid(), "CONT");
            brokerFrozen = false;
            LOG.info("Broker woken with SIGCONT");
        });
    }

    @Test
    void brokerKilledAndRestartedDelaysNoSubmissionAndProcessingResumes() throws Exception {
        runThrough("broker-killed", "Broker SIGKILL, restart from its instance folder after " + DOWN.toSeconds() + " s",
                () -> {
                    BrokerNode broker = TestStack.broker();
                    long pid = broker.pid();
                    broker.kill9();
                    assertTrue(!broker.isAlive(), "the broker is dead");
                    LOG.info("Broker (pid " + pid + ") killed with SIGKILL");
                    Poll.sleep(DOWN.toMillis()); // the outage's length: part of the scenario
                    broker.restart();
                    LOG.info("Broker restarted from its instance folder (pid " + broker.pid() + ")");
                });
    }
}
