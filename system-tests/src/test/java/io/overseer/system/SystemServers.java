package io.overseer.system;

import io.overseer.launcher.AppServerConfig;
import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.PayaraMicroNode;
import io.overseer.launcher.BrokerPair;
import io.overseer.support.TestStack;
import java.nio.file.Path;
import java.util.List;

/**
 * Application servers that system tests start, kill and restart themselves, joined to the TestStack. They
 * listen on 127.0.0.1 only, as the rest of the test stack does.
 */
final class SystemServers {

    private SystemServers() {
    }

    static AppServerNode payaraMicro(String name) {
        return payaraMicro(name, java.util.Map.of());
    }

    /** With these application properties set over the test stack's. */
    static AppServerNode payaraMicro(String name, java.util.Map<String, String> extraProperties) {
        return payaraMicro(name, config(extraProperties));
    }

    /** A server on a database of its own (a replicated one: the URL names every host) and the test stack's broker. */
    static AppServerNode payaraMicroOnDatabase(String name, String jdbcUrl, String user, String password,
                                               java.util.Map<String, String> extraProperties) {
        return payaraMicro(name, config(extraProperties).withDatabase(jdbcUrl, user, password));
    }

    /** A server pointed at a PostgreSQL port where nothing listens (the test stack's broker and users). */
    static AppServerNode payaraMicroWithoutDatabase(String name) {
        return payaraMicro(name, config(java.util.Map.of()).withDatabase(
                "jdbc:postgresql://127.0.0.1:" + TestStack.freePort() + "/overseer", "overseer", "overseer"));
    }

    /**
     * A server whose resource adapter lists both nodes of a replicated pair (HA, as ./run --broker-ha
     * wires it) instead of the test stack's broker; the pair's first user is the application's.
     */
    static AppServerNode payaraMicroOnPair(String name, BrokerPair pair, java.util.Map<String, String> extraProperties) {
        return payaraMicro(name, pair.wire(config(extraProperties).withBroker(pair.clientHost(), pair.primary().port())));
    }

    /** The test stack's wiring, as the launcher's stack gives it, on a port of its own and 127.0.0.1. */
    private static AppServerConfig config(java.util.Map<String, String> extraProperties) {
        return TestStack.serverConfig(TestStack.freePort(), "127.0.0.1", properties(extraProperties));
    }

    private static AppServerNode payaraMicro(String name, AppServerConfig config) {
        Path dir = TestStack.workDir().resolve(name);
        AppServerNode server = new PayaraMicroNode(TestStack.layout(), dir, dir.resolve("payara.log"), config);
        TestStack.USERS.forEach(server::addRealmUser);
        return server;
    }

    /**
     * Starts the servers one after the other, each ready before the next (as the launcher does). Started
     * together, three servers on a busy two-core machine each missed the 180 s readiness limit.
     */
    static void startAll(List<AppServerNode> servers) throws Exception {
        for (AppServerNode server : servers) {
            server.start();
        }
    }

    /** Stops those that were created (null entries are skipped), one after the other. */
    static void stopAll(List<AppServerNode> servers) {
        for (AppServerNode server : servers) {
            if (server != null) {
                server.stop();
            }
        }
    }

    /**
     * The test stack's properties, with the agent's circuit breaker kept closed: these tests make one
     * operation hang for every order, and an open circuit (one per remote service, and the simulator is one service) would also hold back
     * the other operations, so steps the tests count would be attempted more than once before the crash.
     * CircuitBreakerIT covers the circuit.
     */
    private static java.util.Map<String, String> properties(java.util.Map<String, String> extra) {
        var properties = new java.util.HashMap<>(TestStack.appProperties());
        properties.putAll(extra);
        properties.put("overseer.agent.service.remote-service.circuit.enabled", "false");
        return properties;
    }
}
