package io.overseer.system;

import static io.overseer.support.Problems.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.AppServerConfig;
import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.AppRuntime;
import io.overseer.launcher.PayaraServerNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Smoke test of the EAR on Payara Server 6 (from Maven Central), started as ./run --runtime payara-server
 * starts it ({@link PayaraServerNode}): a fresh domain with server-config's post-boot file, the EAR deployed
 * between server-config's http-closed and http-open files (the HTTP port closed meanwhile, as
 * docs/health.md asks), and an order goes through to Processed against the shared PostgreSQL, Artemis and
 * simulator.
 */
class EarOnPayaraServerIT {

    private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static AppServerNode server;
    /** What the HTTP port answered before the application's checks were in it; null if it answered nothing. */
    private static final AtomicReference<String> earlyAnswer = new AtomicReference<>();

    @BeforeAll
    static void startDomainAndDeploy() throws Exception {
        var postgres = TestStack.postgres();
        var broker = TestStack.broker();
        AppServerConfig config = new AppServerConfig(freeHttpPort(), postgres.jdbcUrl(), postgres.appUser(),
                postgres.appPassword(), "127.0.0.1", broker.port(), broker.user(), broker.password(),
                TestStack.simulatorUrl(), TestStack.appProperties(), "512m", "127.0.0.1");
        Path dir = TestStack.workDir().resolve("payara-server");
        server = AppRuntime.PAYARA_SERVER.newNode(TestStack.layout(), "payara-server", dir,
                dir.resolve("payara-server.log"), config);
        TestStack.USERS.forEach(server::addRealmUser);
        Thread watcher = new Thread(EarOnPayaraServerIT::watchThePortWhileDeploying, "http-port-watcher");
        watcher.setDaemon(true);
        watcher.start();
        try {
            server.start();
        } finally {
            watcher.interrupt();
            watcher.join();
        }
    }

    /** Until start() returns: any answer on the HTTP port must already name the application's checks. */
    private static void watchThePortWhileDeploying() {
        URI ready = URI.create(server.baseUrl() + "/health/ready");
        while (!Thread.currentThread().isInterrupted()) {
            try {
                HttpResponse<String> r = PROBE.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (!r.body().contains("\"application\"")) {
                    earlyAnswer.compareAndSet(null, r.statusCode() + " " + r.body());
                }
                Thread.sleep(200);
            } catch (IOException refused) {
                sleepOrStop();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void sleepOrStop() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @AfterAll
    static void stopDomain() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void anOrderGoesThroughTheEarToProcessed() {
        OrdersApi api = new OrdersApi(URI.create(server.baseUrl() + "/"));

        String orderId = api.submit("c-ear");

        assertEquals("Processed", api.awaitState(orderId, Duration.ofSeconds(90), "Processed").get("processState").asText());
        assertEquals(3, TestStack.simulator().effects(orderId).size(), "one effect per step of the order workflow");
    }

    /** The EAR's own checks appear in Payara Server's health endpoints, and say UP. */
    @Test
    void readinessAndLivenessNameTheApplicationsChecks() {
        assertEquals(null, earlyAnswer.get(), "nothing answered on the HTTP port while the EAR was deployed");
        URI root = URI.create(server.baseUrl() + "/");
        Poll.until("readiness UP on Payara Server", Duration.ofSeconds(60),
                () -> Http.get(root.resolve("health/ready")).status() == 200);
        Http.Reply ready = Http.get(root.resolve("health/ready"));
        Http.Reply live = Http.get(root.resolve("health/live"));

        for (String check : List.of("application", "database", "broker")) {
            assertTrue(ready.body().contains("\"" + check + "\""), ready.body());
        }
        assertEquals(200, live.status(), live.body());
        for (String check : List.of("workers", "database-pool")) {
            assertTrue(live.body().contains("\"" + check + "\""), live.body());
        }
    }

    /**
     * What the server itself answers, rather than the application, is set up on Payara Server as on Micro:
     * content on a DELETE reaches authentication (post-boot.asadmin) and is refused as a problem.
     */
    @Test
    void aDeleteWithContentIsAuthenticatedThenAProblem() {
        URI root = URI.create(server.baseUrl() + "/");
        assertProblem(Http.send(HttpRequest.newBuilder(root.resolve("api/orders/x")).header("Content-Type",
                "application/json").method("DELETE", HttpRequest.BodyPublishers.ofString("{}"))), 401);
    }

    /** An HTTP port whose domain's ports (admin, IIOP, JMX, ... see PayaraServerNode) are all free. */
    private static int freeHttpPort() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int http = 20_080 + ThreadLocalRandom.current().nextInt(300) * 100;
            if (PayaraServerNode.domainPorts(http).values().stream().allMatch(EarOnPayaraServerIT::free)) {
                return http;
            }
        }
        throw new IllegalStateException("no free port block for a Payara Server domain");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
