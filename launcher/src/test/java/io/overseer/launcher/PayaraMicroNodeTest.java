package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PayaraMicroNodeTest {

    private static final AppServerConfig CONFIG = new AppServerConfig(8081, "jdbc:postgresql://127.0.0.1:1/d", "u", "p",
            "127.0.0.1", 61616, "app", "secret", "http://127.0.0.1:8090", Map.of("overseer.instance-id", "x-2"), null);

    @TempDir
    Path dir;

    private PayaraMicroNode node(AppServerConfig config) throws IOException {
        Path stack = dir.resolve("stack");
        Files.createDirectories(stack.resolve("config"));
        Files.writeString(stack.resolve("config/post-boot.asadmin"),
                "create-system-properties port=@HTTP_PORT@\nset p.@HTTP_LISTENER@.http.x=true\n");
        return new PayaraMicroNode(StackLayout.fromDirectory(stack), "payara-2", dir.resolve("payara-2"),
                dir.resolve("logs/payara-2.log"), config);
    }

    @Test
    void anInstanceIsNamedInTheLauncherLog() throws IOException {
        PayaraMicroNode node = node(CONFIG);
        assertEquals("payara-2", node.name());
        assertEquals("Payara Micro payara-2", node.label());
        assertEquals("http://127.0.0.1:8081", node.baseUrl());
        PayaraMicroNode single = new PayaraMicroNode(StackLayout.fromDirectory(dir), dir.resolve("payara"),
                dir.resolve("payara.log"), CONFIG);
        assertEquals("payara", single.name());
        assertEquals("Payara Micro", single.label());
    }

    @Test
    void withoutABindAddressHttpIsOnEveryInterfaceAndThereIsNoDataGrid() throws IOException {
        PayaraMicroNode node = node(CONFIG);
        String postBoot = Files.readString(node.writePostBoot());
        assertTrue(postBoot.startsWith("create-system-properties port=8081"), postBoot);
        assertTrue(postBoot.contains("set p.http-listener.http.x=true\n"), postBoot);
        assertFalse(postBoot.contains("http-listener.address"), postBoot);
        assertTrue(postBoot.contains("web-container-availability.availability-enabled=false\n"),
                "without the grid, the web container's sessions and sign-on must not be kept in it: " + postBoot);
        List<String> command = node.command(CONFIG, dir, dir, dir, dir);
        assertTrue(command.contains("--nohazelcast") && !command.contains("--nocluster"),
                "no data grid at all (--nocluster would override --nohazelcast): " + command);
        assertTrue(command.contains("-Doverseer.instance-id=x-2"), command.toString());
    }

    @Test
    void aBindAddressMovesHttpAndThereIsStillNoDataGrid() throws IOException {
        AppServerConfig loopback = CONFIG.withBindAddress("127.0.0.2");
        PayaraMicroNode node = node(loopback);
        String postBoot = Files.readString(node.writePostBoot());
        assertTrue(postBoot.contains("set configs.config.server-config.network-config.network-listeners.network-listener"
                + ".http-listener.address=127.0.0.2\n"), postBoot);
        assertTrue(node.command(loopback, dir, dir, dir, dir).contains("--nohazelcast"), "no data grid at all");
        assertEquals(loopback, loopback.withAppProperties(Map.of()), "the address survives other changes");
    }
}
