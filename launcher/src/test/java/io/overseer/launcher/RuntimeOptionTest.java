package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --runtime: parsing, what each runtime allows, and which node the stack gets. */
class RuntimeOptionTest {

    private static LauncherOptions parse(Map<String, String> env, String... args) {
        return LauncherOptions.parse(args, env);
    }

    private static String refusal(String... args) {
        return assertThrows(UsageException.class, () -> parse(Map.of(), args)).getMessage();
    }

    @Test
    void payaraMicroUnlessAskedOtherwise() {
        assertEquals(AppRuntime.PAYARA_MICRO, parse(Map.of()).runtime());
    }

    @Test
    void theFlagTheInlineFormAndTheEnvironmentNameTheRuntime() {
        assertEquals(AppRuntime.PAYARA_SERVER, parse(Map.of(), "--runtime", "payara-server").runtime());
        assertEquals(AppRuntime.PAYARA_SERVER, parse(Map.of(), "--runtime=Payara-Server").runtime());
        assertEquals(AppRuntime.PAYARA_SERVER, parse(Map.of("OVERSEER_RUNTIME", "payara-server")).runtime());
        assertEquals(AppRuntime.PAYARA_MICRO,
                parse(Map.of("OVERSEER_RUNTIME", "payara-server"), "--runtime", "payara-micro").runtime(), "a flag wins");
    }

    @Test
    void wildflyRunsTheEarWithItsPortsMovedByTheHttpPort() {
        assertEquals(AppRuntime.WILDFLY, parse(Map.of(), "--runtime", "wildfly").runtime());
        assertInstanceOf(WildFlyNode.class, AppRuntime.WILDFLY.newNode(StackLayout.fromDirectory(Path.of("/tmp/stack")),
                "wildfly", Path.of("/tmp/w"), Path.of("/tmp/w.log"), null));
        Map<String, Integer> ports = WildFlyNode.serverPorts(18080);
        assertEquals(18080, ports.get("HTTP"));
        assertEquals(19990, ports.get("management"));
        assertEquals(13528, ports.get("IIOP"));
        // HTTP 8080: management 9990. A simulator there would collide.
        String message = refusal("--runtime", "wildfly", "--simulator-port", "9990");
        assertTrue(message.contains("management port on 9990, which is --simulator-port"), message);
        assertTrue(refusal("--runtime", "wildfly", "--http-port", "5000").contains("from 5576 to 63625"));
        assertTrue(refusal("--runtime", "wildfly", "--broker-ha").contains("not wired for --runtime wildfly"));
        assertTrue(refusal("--runtime", "wildfly", "--instances", "2").contains("needs --runtime payara-micro"));
    }

    @Test
    void anUnknownRuntimeIsRefusedWithTheChoices() {
        String message = refusal("--runtime", "tomee");
        assertTrue(message.contains("payara-micro|payara-server|wildfly"), message);
        assertTrue(message.contains("tomee"), message);
        assertTrue(refusal("--runtime").contains("needs a value"));
    }

    @Test
    void payaraServerRunsOneInstance() {
        String message = refusal("--runtime", "payara-server", "--instances", "2");
        assertTrue(message.contains("--instances 2 needs --runtime payara-micro"), message);
        assertEquals(1, parse(Map.of(), "--runtime", "payara-server", "--instances", "1").instances());
    }

    @Test
    void payaraServerNeedsRoomBelowTheHttpPortForItsDomain() {
        assertTrue(refusal("--runtime", "payara-server", "--http-port", "1100").contains("from 1104 to 65435"));
        assertEquals(1104, parse(Map.of(), "--runtime", "payara-server", "--http-port", "1104").httpPort());
    }

    @Test
    void payaraServersDomainPortsMayNotHitTheStacksOthers() {
        // HTTP 8080: admin 8048, JMX 8086. A simulator on 8086 would collide with JMX.
        String message = refusal("--runtime", "payara-server", "--simulator-port", "8086");
        assertTrue(message.contains("JMX port on 8086, which is --simulator-port"), message);
        // Payara Micro has no such port.
        assertEquals(8086, parse(Map.of(), "--simulator-port", "8086").simulatorPort());
    }

    @Test
    void theDomainsPortsFollowTheHttpPort() {
        Map<String, Integer> ports = PayaraServerNode.domainPorts(18080);
        assertEquals(18080, ports.get("HTTP"));
        assertEquals(18048, ports.get("admin"));
        assertEquals(18037, ports.get("IIOP"));
        assertEquals(18086, ports.get("JMX"));
    }

    @Test
    void theStackGetsTheRuntimesNodeAndNamesItsDirectoriesAfterIt() {
        LauncherOptions options = parse(Map.of("OVERSEER_DATA_DIR", "/tmp/ovs"), "--runtime", "payara-server");
        Stack stack = new Stack(options, StackLayout.fromDirectory(Path.of("/tmp/stack")));
        AppServerNode node = stack.appServer();
        assertInstanceOf(PayaraServerNode.class, node);
        assertEquals("payara-server", node.name());
        assertEquals("Payara Server", node.label());
        assertEquals(Path.of("/tmp/ovs/payara-server"), stack.instances().get(0).workDir());
        assertEquals(Path.of("/tmp/ovs/logs/payara-server.log"), node.logFile());
        assertInstanceOf(PayaraMicroNode.class, new Stack(parse(Map.of("OVERSEER_DATA_DIR", "/tmp/ovs")),
                StackLayout.fromDirectory(Path.of("/tmp/stack"))).appServer());
    }

    @Test
    void helpNamesTheRuntimes() {
        String usage = LauncherCommand.usage();
        assertTrue(usage.contains("--runtime=payara-micro|payara-server|wildfly"), usage);
        assertTrue(usage.contains("OVERSEER_RUNTIME, default payara-micro"), usage);
    }
}
