package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PayaraServerNodeTest {

    private static final AppServerConfig CONFIG = new AppServerConfig(18080, "jdbc:postgresql://127.0.0.1:1/d", "u",
            "p", "127.0.0.1", 61616, "app", "secret", "http://127.0.0.1:8090", Map.of("overseer.x", "y"), null,
            "127.0.0.1");

    /** What start-domain --dry-run printed for a fresh domain of Payara Server 6.2025.10 (shortened). */
    private static final String DRY_RUN = """
            Dump of JVM Invocation line that would be used to launch:
            /usr/lib/jvm/java-17-openjdk-amd64/bin/java
            -cp
            /d/overseer/lib/ext/*:/p/glassfish/modules/glassfish.jar
            -Xmx512m
            -Dcom.sun.aas.instanceRoot=/d/overseer
            com.sun.enterprise.glassfish.bootstrap.ASMain
            -prebootcommandfile
            /w/pre-boot.asadmin
            -domainname
            overseer
            -verbose
            false
            -watchdog
            false

            Command start-domain executed successfully.
            """;

    @TempDir
    Path dir;

    @Test
    void theServerRunsAsStartDomainWouldStartItWithOurHeapPropertiesAndConsoleLog() {
        List<String> cmd = PayaraServerNode.command(CONFIG, PayaraDomain.parseDryRun(DRY_RUN));
        assertEquals("/usr/lib/jvm/java-17-openjdk-amd64/bin/java", cmd.get(0));
        assertEquals(1, cmd.stream().filter(a -> a.startsWith("-Xmx")).count(), cmd.toString());
        int main = cmd.indexOf("com.sun.enterprise.glassfish.bootstrap.ASMain");
        assertTrue(cmd.subList(0, main).containsAll(List.of("-Xmx512m",
                "-Doverseer.remote-service.url=http://127.0.0.1:8090", "-Doverseer.x=y", "-Dhazelcast.socket.bind.any=false")),
                cmd.toString());
        assertEquals("true", cmd.get(cmd.indexOf("-verbose") + 1));
        assertEquals("false", cmd.get(cmd.indexOf("-watchdog") + 1));
        assertFalse(cmd.stream().anyMatch(a -> a.startsWith("Command")));
    }

    @Test
    void aDryRunWithoutTheServerCommandIsAnError() {
        assertThrows(IllegalStateException.class, () -> PayaraDomain.parseDryRun("Domain overseer does not exist"));
    }

    @Test
    void beforeBootTheListenerIsClosedAndEveryPortIsOnLoopback() throws IOException {
        String preBoot = Files.readString(node().domain().writePreBoot(CONFIG));
        String listeners = "set configs.config.server-config.network-config.network-listeners.network-listener.";
        assertTrue(preBoot.startsWith("set " + "x.http-listener-1.enabled=false"), preBoot);
        for (String line : List.of(listeners + "http-listener-1.address=127.0.0.1", listeners + "http-listener-1.port=18080",
                listeners + "http-listener-2.enabled=false", listeners + "admin-listener.address=127.0.0.1",
                "set configs.config.server-config.iiop-service.iiop-listener.orb-listener-1.address=127.0.0.1",
                "set configs.config.server-config.admin-service.jmx-connector.system.address=127.0.0.1")) {
            assertTrue(preBoot.contains(line + System.lineSeparator()), line + " in\n" + preBoot);
        }
    }

    @Test
    void afterBootResourcesUsersTheEarAndThenTheListener() throws IOException {
        String postBoot = Files.readString(node().domain().writePostBoot(CONFIG,
                List.of(new RealmUser("demo", "demo", RealmUser.ALL_ROLES))));
        int resources = postBoot.indexOf("create-system-properties port=18080");
        int user = postBoot.indexOf("create-file-user");
        int deploy = postBoot.indexOf("deploy --name overseer " + dir.resolve("stack/overseer.ear"));
        int open = postBoot.indexOf("set y.http-listener-1.enabled=true");
        assertTrue(postBoot.contains("set p.http-listener-1.http.x=true"), postBoot);
        assertTrue(resources >= 0 && resources < user && user < deploy && deploy < open, postBoot);
        assertFalse(postBoot.contains("demo:demo") || postBoot.contains("PASSWORD=demo"), "no password inline");
    }

    private PayaraServerNode node() throws IOException {
        Path stack = dir.resolve("stack");
        Files.createDirectories(stack.resolve("config"));
        Files.writeString(stack.resolve("config/post-boot.asadmin"),
                "create-system-properties port=@HTTP_PORT@\nset p.@HTTP_LISTENER@.http.x=true\n");
        Files.writeString(stack.resolve("config/http-closed.asadmin"), "set x.@HTTP_LISTENER@.enabled=false\n");
        Files.writeString(stack.resolve("config/http-open.asadmin"), "set y.@HTTP_LISTENER@.enabled=true\n");
        return new PayaraServerNode(StackLayout.fromDirectory(stack), "payara-server", dir.resolve("payara-server"),
                dir.resolve("logs/payara-server.log"), CONFIG);
    }

    /** What multimode printed when an admin port answered its first command 404 (a start that then ran unwired). */
    @Test
    void aFailedPostBootCommandIsNamed() {
        String out = """
                Closest matching local and remote command(s):\s
                    create-resource-adapter-config

                Command create-resource-adapter-config failed.
                Application deployed with name artemis-rar.
                Command deploy executed successfully.
                Command multimode executed successfully.
                """;
        assertEquals(List.of("create-resource-adapter-config"), PayaraDomain.failedCommands(out));
        assertEquals(List.of(), PayaraDomain.failedCommands("Command deploy executed successfully.\n"));
    }
}
