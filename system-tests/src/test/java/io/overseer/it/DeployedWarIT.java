package io.overseer.it;

import io.overseer.support.OrdersApi;
import io.overseer.support.RemoteServiceCircuit;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What most Arquillian tests share: the WAR as users deploy it on Payara Micro ({@link TheWar}: plus the test
 * agents and settings some classes need, out of the others' way), tested from the outside (its root URL,
 * the orders API as the test stack's client user), the simulator with no fault injected when each test
 * starts or ends, and the remote service's circuit closed when it starts ({@link RemoteServiceCircuit}: one
 * server serves every class, and the last one's faults may have opened it).
 * Not a test itself: failsafe runs *IT classes, and this one is abstract.
 *
 * <p>The stack under the WAR — PostgreSQL, Artemis and the simulator — is {@link TestStack}'s, started once
 * per test run before any class (and before Arquillian starts Payara Micro, whose datasource and adapter
 * point at it); {@link #theStackIsUp} says so, and fails plainly if it is not.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
abstract class DeployedWarIT {

    @ArquillianResource
    URL base;

    /** The application's root, e.g. {@code http://127.0.0.1:PORT/overseer/}. */
    URI root;
    OrdersApi api;
    final SimulatorApi simulator = TestStack.simulator();

    @BeforeAll
    static void theStackIsUp() {
        TestStack.requireStarted();
    }

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TheWar.deployment();
    }

    @BeforeEach
    void connectToTheWar() {
        root = URI.create(base.toString());
        api = new OrdersApi(root);
        simulator.clearFaults();
        RemoteServiceCircuit.awaitClosed(root);
    }

    @AfterEach
    void healTheSimulator() {
        simulator.clearFaults();
    }
}
