package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpPortsTest {

    private static final Path DATA = Path.of("/tmp/ovs");

    @Test
    void aPortSomeoneListensOnIsTakenForEveryAddress() throws IOException {
        int port;
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = other.getLocalPort();
            assertFalse(HttpPorts.isFree(null, port), "the wildcard overlaps the loopback listener");
            assertFalse(HttpPorts.isFree("127.0.0.1", port));
        }
        assertTrue(HttpPorts.isFree("127.0.0.1", port), "free again once closed");
    }

    @Test
    void theMessageNamesEachTakenPortAndItsInstance() throws IOException {
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = other.getLocalPort();
            // The taken port is the second of three instances, whatever port the system handed out.
            List<AppInstance> instances = List.of(AppInstance.of(1, taken - 1, DATA), AppInstance.of(2, taken - 1, DATA),
                    AppInstance.of(3, taken - 1, DATA));
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> HttpPorts.requireFree(instances, "127.0.0.1"));
            // Its neighbours belong to whoever else runs on this machine: only what is known is checked.
            String message = e.getMessage();
            assertTrue(message.contains(taken + " (payara-2)"), message);
            assertTrue(message.contains("ss -ltnp 'sport = :"), message);
            assertTrue(message.endsWith("the 3 instances use ports " + (taken - 1) + "-" + (taken + 1)
                    + ": choose another --http-port"), message);
        }
    }

    @Test
    void freePortsPass() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        assertDoesNotThrow(() -> HttpPorts.requireFree(List.of(AppInstance.of(1, port, DATA)), "127.0.0.1"));
    }
}
