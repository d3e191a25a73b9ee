package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.OrdersApi;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Kill -9 (and SIGTERM) of the application server while orders are in flight, then a restart: every
 * accepted order ends Processed and no effect is applied twice. The kill is a real SIGKILL of the
 * Payara Micro process; the restart is a new process on the same database and broker.
 */
class CrashRecoveryIT {

    private static final Logger LOG = Logger.getLogger(CrashRecoveryIT.class.getName());
    private static final int ORDERS = 200;
    private static final String CUSTOMER = "c-crash-";
    private static final String STEPPED = "c-stepped-";
    private static final String TERMINATED = "c-sigterm-";
    /** Steps of the default order workflow: each accepted order applies exactly this many effects. */
    private static final int STEPS = 3;

    private AppServerNode server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void killNineMidFlightLosesNothingAndAppliesNothingTwice() throws Exception {
        server = SystemServers.payaraMicro("crash");
        server.start();
        OrdersApi api = new OrdersApi(URI.create(server.baseUrl()));
        SimulatorApi simulator = TestStack.simulator();
        simulator.clearFaults();
        simulator.fault("*", "latency", 1.0, 50);
        long appliedBefore = simulator.stats().get("applied").asLong();

        List<String> ids = submitConcurrently(api, ORDERS);
        awaitProcessedAtLeast(CUSTOMER, ids.size() / 10, Duration.ofSeconds(60));
        server.kill9();
        long processedAtKill = processedCount(CUSTOMER);
        LOG.info("SIGKILLed Payara with " + processedAtKill + " of " + ORDERS + " orders Processed");
        assertFalse(server.isAlive());
        assertTrue(processedAtKill < ORDERS, "the kill must happen while orders are in flight");

        simulator.clearFaults();
        server.start();
        awaitProcessedAtLeast(CUSTOMER, ORDERS, Duration.ofSeconds(240));

        assertEquals(ORDERS, TestStack.scalar("SELECT count(*) FROM customer_order WHERE customer_id LIKE ?", CUSTOMER + "%"),
                "every accepted order exists, once");
        for (String id : ids) {
            JsonNode order = api.get(id);
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            assertEquals(STEPS, simulator.effects(id).size(), "effects of " + id);
        }
        JsonNode stats = simulator.stats();
        assertEquals(0, stats.get("appliedTwice").asLong(), stats.toString());
        assertEquals(ORDERS * STEPS, stats.get("applied").asLong() - appliedBefore, stats.toString());
    }

    @Test
    void killNineBetweenStepsResumesAtTheStepInFlightAndNeverRepeatsACompletedOne() throws Exception {
        server = SystemServers.payaraMicro("between-steps");
        server.start();
        OrdersApi api = new OrdersApi(URI.create(server.baseUrl()));
        SimulatorApi simulator = TestStack.simulator();
        simulator.clearFaults();
        // Step 2 hangs, so every order has step 1 done and step 2 in flight when the server dies.
        simulator.fault("charge-payment", "hang", 1.0, 0);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(api.submit(STEPPED + i));
        }
        awaitCount("SELECT count(*) FROM step_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE o.customer_id LIKE ? AND s.name = 'reserve-inventory' AND s.state = 'Completed'", STEPPED + "%", 20);

        server.kill9();
        simulator.clearFaults();
        server.start();
        for (String id : ids) {
            api.awaitState(id, Duration.ofSeconds(120), "Processed");
        }

        assertEquals(20, TestStack.scalar("SELECT count(*) FROM step_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE o.customer_id LIKE ? AND s.name = 'reserve-inventory' AND s.attempts = 1", STEPPED + "%"),
                "step 1 ran once for every order: it was not called again after the restart");
        for (String id : ids) {
            assertEquals(STEPS, simulator.effects(id).size(), "effects of " + id);
        }
        assertEquals(0, simulator.stats().get("appliedTwice").asLong());
    }

    private static void awaitCount(String sql, String parameter, long count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (TestStack.scalar(sql, parameter) < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Only " + TestStack.scalar(sql, parameter) + " of " + count + ": " + sql);
            }
            Thread.sleep(100);
        }
    }

    @Test
    void sigtermDuringLoadThenRestartLosesNothingAndAppliesNothingTwice() throws Exception {
        server = SystemServers.payaraMicro("sigterm");
        server.start();
        OrdersApi api = new OrdersApi(URI.create(server.baseUrl()));
        SimulatorApi simulator = TestStack.simulator();
        simulator.clearFaults();
        simulator.fault("*", "latency", 1.0, 50);

        List<String> ids = submitConcurrently(api, 100, TERMINATED);
        awaitProcessedAtLeast(TERMINATED, 10, Duration.ofSeconds(60));
        server.stop();
        long processedAtStop = processedCount(TERMINATED);
        LOG.info("SIGTERMed Payara with " + processedAtStop + " of 100 orders Processed");
        assertFalse(server.isAlive());
        String log = java.nio.file.Files.readString(TestStack.workDir().resolve("sigterm").resolve("payara.log"));
        assertTrue(log.contains("Shutting down: no new work is taken"), "the shutdown gate closed on SIGTERM");
        assertTrue(processedAtStop < 100, "the stop must happen while orders are in flight");

        simulator.clearFaults();
        server.start();
        awaitProcessedAtLeast(TERMINATED, 100, Duration.ofSeconds(240));

        for (String id : ids) {
            assertEquals(STEPS, simulator.effects(id).size(), "effects of " + id);
        }
        assertEquals(0, simulator.stats().get("appliedTwice").asLong());
    }

    private static List<String> submitConcurrently(OrdersApi api, int count) throws Exception {
        return submitConcurrently(api, count, CUSTOMER);
    }

    private static List<String> submitConcurrently(OrdersApi api, int count, String customerPrefix) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String customer = customerPrefix + i;
                futures.add(pool.submit(() -> api.submit(customer)));
            }
            List<String> ids = new ArrayList<>();
            for (Future<String> future : futures) {
                ids.add(future.get());
            }
            return ids;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Processed orders of one test, told apart by their customer prefix (test classes share the database). */
    private static long processedCount(String customerPrefix) {
        return TestStack.scalar("SELECT count(*) FROM order_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE s.process_state = 'Processed' AND o.customer_id LIKE ?", customerPrefix + "%");
    }

    private static void awaitProcessedAtLeast(String customerPrefix, long count, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (processedCount(customerPrefix) < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Only " + processedCount(customerPrefix) + " of " + count + " Processed after "
                        + timeout + "; by state: " + TestStack.statesSummary());
            }
            Thread.sleep(50);
        }
    }
}
