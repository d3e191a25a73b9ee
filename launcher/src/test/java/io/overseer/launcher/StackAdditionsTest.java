package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A program's additions to the options' stack (the system tests' infrastructure): the broker's users as given,
 * no application server, and servers of the program's own wired as the stack wires its instances.
 */
class StackAdditionsTest {

    private static final BrokerUser APPLICATION = BrokerUser.generated("overseer-app", BrokerUser.APPLICATION);
    private static final BrokerUser WATCHER = BrokerUser.generated("watcher", BrokerUser.VIEWER);

    private static LauncherOptions options(String... args) {
        return LauncherOptions.parse(args, Map.of("OVERSEER_DATA_DIR", "/tmp/ovs"));
    }

    private static StackLayout layout() {
        return StackLayout.fromDirectory(Path.of("/tmp/stack"));
    }

    @Test
    void theInfrastructureHasTheGivenApplicationUserFirstTheDemoUserAndTheExtrasButNoServer() {
        Stack stack = new Stack(options("--broker-port", "16161"), layout(),
                StackAdditions.infrastructure(APPLICATION, List.of(WATCHER)));
        assertTrue(stack.appServers().isEmpty());
        assertTrue(stack.instances().isEmpty());
        List<BrokerUser> users = stack.broker().users();
        assertEquals(APPLICATION, users.get(0));
        assertEquals(List.of(LauncherOptions.DEMO_USER, WATCHER.name()), users.subList(1, 3).stream().map(BrokerUser::name).toList());
    }

    @Test
    void aServerOfTheProgramsOwnIsWiredAsTheStacksInstanceIs() {
        LauncherOptions options = options("--db-port", "15432", "--broker-port", "16161", "--simulator-port", "18090",
                "--broker-tls", "--data-dir", "target/stack-additions-tls");
        Stack ours = new Stack(options, layout(), StackAdditions.infrastructure(APPLICATION, List.of()));
        AppServerConfig config = ours.serverConfig(18080, "127.0.0.1", Map.of("k", "v"));
        assertEquals("jdbc:postgresql://127.0.0.1:15432/overseer", config.dbUrl());
        assertEquals(16161, config.brokerPort());
        assertEquals(APPLICATION.name(), config.brokerUser());
        assertEquals(APPLICATION.password(), config.brokerPassword());
        assertEquals("http://127.0.0.1:18090", config.remoteServiceUrl());
        assertEquals(ours.brokerTls().get(), config.brokerTls());
        assertEquals(Map.of("k", "v"), config.appProperties());

        AppServerConfig run = new Stack(options, layout()).appServer().config();
        assertEquals(config.dbUrl(), run.dbUrl());
        assertEquals(config.brokerPort(), run.brokerPort());
        assertEquals(config.remoteServiceUrl(), run.remoteServiceUrl());
        assertNotEquals(APPLICATION.password(), run.brokerPassword(), "./run makes its application's password up");
    }
}
