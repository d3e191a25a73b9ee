package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BalancerTest {

    /** One instance answers ready, one answers 503 (its application not deployed), one is not running. */
    @Test
    void sendsOnlyToReadyInstancesAndToAnyWhenNoneIs() throws Exception {
        AtomicInteger readyStatus = new AtomicInteger(200);
        HttpServer ready = server(readyStatus);
        HttpServer notReady = server(new AtomicInteger(503));
        String up = "http://127.0.0.1:" + ready.getAddress().getPort();
        String down = "http://127.0.0.1:" + notReady.getAddress().getPort();
        String gone = "http://127.0.0.1:" + freePort();
        try (Balancer balancer = new Balancer(List.of(down, up, gone))) {
            for (int preferred = 0; preferred < 3; preferred++) {
                for (int attempt = 0; attempt < 4; attempt++) {
                    assertEquals(up, balancer.pick(preferred, attempt));
                }
            }
            readyStatus.set(503);
            Thread.sleep(3 * Balancer.PROBE_EVERY_MS);
            // None in rotation: every instance in turn from the preferred one, as if there were no balancer.
            assertEquals(List.of(up, gone, down), List.of(balancer.pick(1, 0), balancer.pick(1, 1), balancer.pick(1, 2)));
            assertEquals(Set.of(down, up, gone), Set.of(balancer.pick(0, 0), balancer.pick(0, 1), balancer.pick(0, 2)));
        } finally {
            ready.stop(0);
            notReady.stop(0);
        }
    }

    private static HttpServer server(AtomicInteger status) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/health/ready", exchange -> {
            exchange.sendResponseHeaders(status.get(), -1);
            exchange.close();
        });
        s.start();
        return s;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
