package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BalancerTest {

    /**
     * One instance answers ready, one answers 503 (its application not deployed), one is not running; then
     * the ready one turns 503 and the probes that follow take it out of rotation.
     */
    @Test
    void sendsOnlyToReadyInstancesAndToAnyWhenNoneIs() throws Exception {
        AtomicInteger readyStatus = new AtomicInteger(200);
        CountDownLatch answeredNotReady = new CountDownLatch(2);
        HttpServer ready = server(readyStatus, answeredNotReady);
        HttpServer notReady = server(new AtomicInteger(503), new CountDownLatch(0));
        String up = "http://127.0.0.1:" + ready.getAddress().getPort();
        String down = "http://127.0.0.1:" + notReady.getAddress().getPort();
        String gone = "http://127.0.0.1:" + freePort();
        try (Balancer balancer = new Balancer(List.of(down, up, gone), Duration.ofMillis(20))) {
            for (int preferred = 0; preferred < 3; preferred++) {
                for (int attempt = 0; attempt < 4; attempt++) {
                    assertEquals(up, balancer.pick(preferred, attempt));
                }
            }
            readyStatus.set(503);
            // An instance's probes run one after another: once its second 503 is asked for, the first is recorded.
            assertTrue(answeredNotReady.await(10, TimeUnit.SECONDS), "the probes go on after the first");
            // None in rotation: every instance in turn from the preferred one, as if there were no balancer.
            assertEquals(List.of(up, gone, down), List.of(balancer.pick(1, 0), balancer.pick(1, 1), balancer.pick(1, 2)));
            assertEquals(Set.of(down, up, gone), Set.of(balancer.pick(0, 0), balancer.pick(0, 1), balancer.pick(0, 2)));
        } finally {
            ready.stop(0);
            notReady.stop(0);
        }
    }

    /** A readiness endpoint answering {@code status}, counting {@code notReady} down for each 503. */
    private static HttpServer server(AtomicInteger status, CountDownLatch notReady) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/health/ready", exchange -> {
            int answer = status.get();
            if (answer == 503) {
                notReady.countDown();
            }
            exchange.sendResponseHeaders(answer, -1);
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
