package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What the health endpoints tell a load balancer and an orchestrator, against a real Payara Micro:
 * readiness is never UP while the API does not serve (watched from the moment the HTTP port first
 * answers, through the whole start), it follows the broker (DOWN while the broker is frozen with
 * SIGSTOP, UP again after SIGCONT), and liveness names its checks and stays UP through that outage —
 * with a bound of 5 s instead of 2 min, so that a send blocked on the frozen broker would show at once
 * if it counted as a stuck worker.
 *
 * <p>One server for both: the start is watched by the first test, and the broker's outage needs only a
 * running server, so the second takes the first's (started if the first did not leave it running), with
 * the 5 s bound set from the start. Two starts before, one now.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HealthIT {

    private static final Logger LOG = Logger.getLogger(HealthIT.class.getName());
    private static final Duration FREEZE = Duration.ofSeconds(20);

    private static AppServerNode server;
    private boolean brokerFrozen;
    private String customerPrefix;

    @AfterEach
    void cleanUp() {
        if (brokerFrozen) {
            OutageScenario.signalTree(TestStack.broker().pid(), "CONT"); // the broker is shared by every system test
        }
        LeftoverOrders.park(customerPrefix, "HealthIT");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.stop();
        }
    }

    /**
     * With liveness's stuck-worker bound at 5 s instead of 2 min (see the class comment); the first test
     * only watches readiness and the API, which that bound does not touch.
     */
    private static AppServerNode newServer() {
        return SystemServers.payaraMicro("health", Map.of("overseer.health.stuck-after", "PT5S"));
    }

    @Test
    @Order(1)
    void readinessIsNeverUpWhileTheApiDoesNotServe() throws Exception {
        stopServer();
        server = newServer();
        URI base = URI.create(server.baseUrl() + "/");
        CompletableFuture<Void> start = CompletableFuture.runAsync(() -> {
            try {
                server.start();
            } catch (java.io.IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Poll.until("the HTTP port to answer", AppServerNode.READY_TIMEOUT, () -> answer(base.resolve("health/ready")) != null
                || start.isDone());
        boolean watchedBeforeReady = !start.isDone();

        List<String> samples = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        int bothUp = 0;
        long firstAnswer = System.nanoTime();
        long deadline = firstAnswer + AppServerNode.READY_TIMEOUT.toNanos();
        // Ready, then the API, in that order: the API only ever starts serving during a start, so an API
        // that does not serve right after a ready UP did not serve when readiness said UP either.
        while (bothUp < 20 && System.nanoTime() < deadline) {
            Http.Reply ready = answer(base.resolve("health/ready"));
            Http.Reply api = answer(base.resolve("api/orders?limit=1"), TestStack.credentials(TestStack.CLIENT));
            String sample = describe(ready) + " / api " + (api == null ? "no answer" : api.status());
            if (samples.isEmpty() || !samples.get(samples.size() - 1).endsWith(sample)) {
                samples.add(String.format("%.2f s: %s", (System.nanoTime() - firstAnswer) / 1e9, sample));
            }
            boolean readyUp = ready != null && ready.status() == 200;
            boolean serving = api != null && api.status() == 200;
            if (readyUp && !serving) {
                violations.add(String.format("%.2f s: %s", (System.nanoTime() - firstAnswer) / 1e9, sample));
            }
            bothUp = readyUp && serving ? bothUp + 1 : 0;
            Poll.sleep(10);
        }
        LOG.info("Readiness and API from the first answer of the HTTP port (changes only; watched before the"
                + " launcher saw the server ready: " + watchedBeforeReady + "): " + samples);
        start.get(10, TimeUnit.SECONDS);

        assertTrue(violations.isEmpty(), violations.size() + " times readiness UP while the API did not serve, first "
                + violations.subList(0, Math.min(5, violations.size())) + "; all changes: " + samples);
        assertEquals(20, bothUp, "readiness and the API both up at the end: " + samples);
        assertTrue(checkNames(Http.get(base.resolve("health/ready")).json())
                .containsAll(List.of("application", "database", "broker")));
    }

    @Test
    @Order(2)
    void readinessFollowsTheBrokerAndLivenessStaysUpThroughItsOutage() {
        if (server == null) {
            server = newServer();
        }
        if (!server.isAlive()) {
            startServer();
        }
        URI base = URI.create(server.baseUrl() + "/");
        OrdersApi api = new OrdersApi(base);

        Http.Reply live = Http.get(base.resolve("health/live"));
        assertEquals(200, live.status(), live.body());
        assertEquals("UP", live.json().path("status").asText(), live.body());
        assertTrue(checkNames(live.json()).containsAll(List.of("workers", "database-pool")), live.body());
        Http.Reply ready = Http.get(base.resolve("health/ready"));
        assertEquals(200, ready.status(), ready.body());

        long brokerPid = TestStack.broker().pid();
        OutageScenario.signalTree(brokerPid, "STOP");
        brokerFrozen = true;
        long frozenAt = System.nanoTime();
        List<String> notLive = new ArrayList<>();
        // Orders keep arriving, so the courier's senders block on the frozen broker: the liveness bound
        // (5 s here) passes several times over while they wait. Whether each is accepted is
        // BrokerOutageIT's concern, not this test's.
        customerPrefix = "c-health-" + Long.toHexString(System.nanoTime()) + "-";
        int submitted = 0;
        boolean readinessWentDown = false;
        while (System.nanoTime() - frozenAt < FREEZE.toNanos()) {
            api.submitRaw("application/json", OrdersApi.order(customerPrefix + submitted++, "A-1", 1));
            Http.Reply reply = Http.get(base.resolve("health/ready"));
            readinessWentDown |= reply.status() == 503 && brokerDown(reply.json());
            Http.Reply liveness = Http.get(base.resolve("health/live"));
            if (liveness.status() != 200) {
                notLive.add(String.format("%.1f s: %s", (System.nanoTime() - frozenAt) / 1e9, liveness.body()));
            }
            Poll.sleep(500);
        }
        boolean downAtTheEnd = Http.get(base.resolve("health/ready")).status() == 503;
        OutageScenario.signalTree(brokerPid, "CONT");
        brokerFrozen = false;
        long wokenAt = System.nanoTime();
        Poll.until("readiness UP after the broker is woken", Duration.ofSeconds(60),
                () -> Http.get(base.resolve("health/ready")).status() == 200);
        LOG.info(String.format("Broker frozen %d s with %d orders submitted; ready again %.1f s after SIGCONT",
                FREEZE.toSeconds(), submitted, (System.nanoTime() - wokenAt) / 1e9));

        assertTrue(readinessWentDown, "readiness DOWN naming the broker while it was frozen");
        assertTrue(downAtTheEnd, "readiness still DOWN at the end of the freeze");
        assertTrue(notLive.isEmpty(), "liveness not UP while only the broker was down: " + notLive);
        assertEquals(200, Http.get(base.resolve("health/live")).status());
    }

    private static void startServer() {
        try {
            server.start();
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The answer, or null while nothing listens on the port (or the connection breaks). */
    private static Http.Reply answer(URI uri) {
        return answer(uri, null);
    }

    private static Http.Reply answer(URI uri, Http.Credentials credentials) {
        try {
            return Http.get(uri, credentials);
        } catch (UncheckedIOException e) {
            return null;
        }
    }

    /** Status and each check's state, sorted (Payara lists them in no fixed order); else the body's start. */
    private static String describe(Http.Reply ready) {
        if (ready == null) {
            return "ready no answer";
        }
        try {
            JsonNode health = ready.json();
            if (health == null || !health.isObject()) {
                throw new UncheckedIOException(new java.io.IOException("not a health answer"));
            }
            List<String> checks = new ArrayList<>();
            health.path("checks").forEach(c -> checks.add(c.path("name").asText() + " " + c.path("status").asText()));
            checks.sort(null);
            return "ready " + ready.status() + " " + health.path("status").asText() + " " + checks;
        } catch (UncheckedIOException notJson) {
            String body = ready.body().replaceAll("\\s+", " ");
            return "ready " + ready.status() + " " + body.substring(0, Math.min(body.length(), 60));
        }
    }

    private static boolean brokerDown(JsonNode health) {
        for (JsonNode check : health.path("checks")) {
            if ("broker".equals(check.path("name").asText()) && "DOWN".equals(check.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    private static List<String> checkNames(JsonNode health) {
        List<String> names = new ArrayList<>();
        health.path("checks").forEach(check -> names.add(check.path("name").asText()));
        return names;
    }
}
