package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.Rows;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Kill -9 (and SIGTERM) of the application server while orders are in flight, then a restart: every
 * accepted order ends Processed and no effect is applied twice. The kill is a real SIGKILL of the
 * Payara Micro process; the restart is a new process on the same database and broker.
 *
 * <p>And one of three instances killed -9 with orders claimed and never restarted: the two survivors
 * finish its orders within a stated bound (issue 10, "a dead instance's work is taken over within
 * complete-by + one supervisor period").
 *
 * <p>Server starts: a restart after a kill is what each scenario proves, the start before it is only
 * its set-up. So the single-instance scenarios share one server, one after the other: the server a
 * scenario restarts after its kill is the one the next scenario loads and kills (four starts for three
 * kills, where one server per scenario took eight), and the between-steps and both-branches scenarios
 * share one kill. The three-instance takeover runs first, before that server exists (and stops it if it
 * does), so that no fourth instance competes for its orders or the supervisor's lease.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CrashRecoveryIT {

    private static final Logger LOG = Logger.getLogger(CrashRecoveryIT.class.getName());
    private static final int ORDERS = 200;
    private static final String CUSTOMER = "c-crash-";
    private static final String STEPPED = "c-stepped-";
    private static final String TERMINATED = "c-sigterm-";
    private static final String FORKED = "c-forked-crash-";
    /** Steps of the default order workflow: each accepted order applies exactly this many effects. */
    private static final int STEPS = 3;

    private static final String TAKEOVER = "c-takeover-";
    private static final List<String> TAKEOVER_IDS = List.of("takeover-a", "takeover-b", "takeover-c");
    /** The step's complete-by in the takeover test; the supervisor's lease is no longer (see the test). */
    private static final Duration COMPLETE_BY = Duration.ofSeconds(10);
    /** The supervisor's lease in the takeover test: no longer than {@link #COMPLETE_BY} (see the test). */
    private static final Duration LEASE = Duration.ofSeconds(10);
    /** The supervisor's timer fires every second on every instance; the lease holder sweeps. */
    private static final Duration SUPERVISOR_PERIOD = Duration.ofSeconds(1);
    /** A margin for a renewal that comes late on two busy cores (CI once read the lease lapsed just after the takeover). */
    private static final Duration LATE_TIMER = Duration.ofSeconds(10);
    /** Every call takes this long at the simulator, so that orders are still in flight at the kill. */
    private static final long CALL_LATENCY_MS = 2_000;
    /**
     * The sweep recovers each expired attempt in a transaction of its own, one after the other: 300 ms
     * each were seen on a two-core machine under a load average of about 50 (33 in 10 s).
     */
    private static final Duration RECOVERY_EACH = Duration.ofMillis(300);

    /**
     * What recovering and finishing {@code orders} orders takes once their attempts have expired: the
     * sweep's recovery of each ({@link #RECOVERY_EACH}), their remaining steps (three at most) at
     * {@link #CALL_LATENCY_MS} each, and 10 s for claims and messages on a two-core machine that three
     * servers, PostgreSQL, the broker and the simulator share.
     */
    private static Duration margin(int orders) {
        return RECOVERY_EACH.multipliedBy(orders).plusMillis(STEPS * CALL_LATENCY_MS).plusSeconds(10);
    }

    /**
     * The single-instance scenarios' server. Ten retries instead of the test stack's three: the
     * between-steps orders' hanging step expires every complete-by (3 s) and is retried, and must still be
     * in flight, not given up, when the both-branches orders are ready for the kill however slow the
     * machine (ten retries keep it in flight for over 30 s; from the first submission to the kill took
     * under 5 s in a trial). No scenario here counts on giving up.
     */
    private static AppServerNode shared;
    private final List<AppServerNode> servers = new ArrayList<>();

    @AfterEach
    void stopTakeoverServers() {
        SystemServers.stopAll(servers);
        if (!servers.isEmpty()) {
            LeftoverOrders.park(TAKEOVER, "CrashRecoveryIT");
        }
    }

    @AfterAll
    static void stopSharedServer() {
        if (shared != null) {
            shared.stop();
        }
    }

    /** The shared server, started if no scenario left it running (the first, or one that failed before its restart). */
    private static AppServerNode runningServer() throws Exception {
        if (shared == null) {
            shared = SystemServers.payaraMicro("crash-recovery", Map.of("overseer.supervisor.max-retries", "10"));
        }
        if (!shared.isAlive()) {
            shared.start();
        }
        return shared;
    }

    @Test
    @Order(2)
    void killNineMidFlightLosesNothingAndAppliesNothingTwice() throws Exception {
        AppServerNode server = runningServer();
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

    /**
     * Three instances; the one that holds the supervisor's lease — the hardest to lose — claims orders and
     * is killed -9 while they are in flight. The attempts it had claimed expire at most
     * {@link #COMPLETE_BY} after the kill; its lease lapses at most one lease period after it was last
     * renewed, and the lease (10 s) is no longer than complete-by, so it lapses no later. So within
     * complete-by + one supervisor period a survivor's sweep takes the attempts the dead instance left
     * over, and {@link #margin(int)} later — the sweep recovers them one by one, then their steps run —
     * every such order is finished: that is the bound asserted, measured from the kill. Many finish sooner: the survivors' agents take the dead one's requests still in the
     * broker, and the next steps of its orders are started (in its name, as the owner of the order) by
     * whichever survivor handles the reply. Nothing is lost and nothing applied twice.
     */
    @Test
    @Order(1)
    void aKilledInstancesClaimedOrdersAreFinishedBySurvivorsWithinCompleteByAndOneSweep() throws Exception {
        stopSharedServer(); // not running when this test comes first, as it does in the class's order
        for (String id : TAKEOVER_IDS) {
            servers.add(SystemServers.payaraMicro(id, Map.of("overseer.instance-id", id,
                    "overseer.scheduler.complete-by", COMPLETE_BY.toString(),
                    "overseer.supervisor.lease", LEASE.toString(),
                    "overseer.supervisor.max-retries", "10")));
        }
        SystemServers.startAll(servers);
        SimulatorApi simulator = TestStack.simulator();
        simulator.clearFaults();
        simulator.fault("*", "latency", 1.0, CALL_LATENCY_MS);
        long appliedTwiceBefore = simulator.stats().get("appliedTwice").asLong();

        Poll.until("one of the three to hold the supervisor's lease", Duration.ofSeconds(30),
                () -> TAKEOVER_IDS.contains(String.valueOf(leaseHolder())));
        String victimId = leaseHolder();
        AppServerNode victim = servers.get(TAKEOVER_IDS.indexOf(victimId));
        List<String> survivorIds = TAKEOVER_IDS.stream().filter(id -> !id.equals(victimId)).toList();
        // Submitted to the survivors only (none is refused by the kill); the victim takes its share through the
        // agents' replies, which every instance consumes: whoever applies a reply starts the next step in its name.
        List<String> ids = new ArrayList<>();
        for (String id : survivorIds) {
            OrdersApi api = new OrdersApi(URI.create(servers.get(TAKEOVER_IDS.indexOf(id)).baseUrl()));
            ids.addAll(submitConcurrently(api, 60, TAKEOVER + id + "-"));
        }
        Poll.until("the lease holder " + victimId + " to have claimed orders", Duration.ofSeconds(60),
                () -> claimedBy(victimId).size() >= 5);

        long killedAt = System.nanoTime();
        long killedAtDbMillis = TestStack.scalar("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint", null);
        victim.kill9();
        List<String> orphans = claimedBy(victimId);
        LOG.info("SIGKILLed " + victimId + " (the supervisor's lease holder) with " + orphans.size()
                + " orders claimed, e.g. " + orphans.stream().limit(3).toList());
        assertFalse(orphans.isEmpty(), "the kill must leave orders claimed by the dead instance");

        Poll.until("the dead instance's " + orphans.size() + " orders to be Processed", Duration.ofMinutes(3),
                () -> processed(orphans) == orphans.size());
        Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
        Duration margin = margin(orphans.size());
        Duration bound = COMPLETE_BY.plus(SUPERVISOR_PERIOD).plus(margin);
        LOG.info("The survivors finished the dead instance's orders " + takeover.toMillis() + " ms after the kill"
                + " (bound " + bound.toMillis() + " ms); supervisors' history entries since: "
                + recoveredBySupervisor(orphans, killedAtDbMillis));
        assertTrue(takeover.compareTo(bound) <= 0, "the dead instance's orders were finished " + takeover.toMillis()
                + " ms after the kill; complete-by " + COMPLETE_BY.toMillis() + " ms + supervisor period "
                + SUPERVISOR_PERIOD.toMillis() + " ms + margin " + margin.toMillis() + " ms = " + bound.toMillis() + " ms");
        Map<String, Long> recoveries = recoveredBySupervisor(orphans, killedAtDbMillis);
        assertTrue(survivorIds.containsAll(recoveries.keySet()), "only survivors recovered expired attempts: " + recoveries);
        // The lease is a moving state: a survivor busy finishing the orphans may renew it late, so it lapses for a
        // moment and is taken again at the next sweep (JobLease). What the guarantee says is that the dead instance
        // never holds it again and a survivor does: waited for within one lease and a sweep, never read once.
        Poll.until("a survivor (" + survivorIds + ") to hold the supervisor's lease",
                LEASE.plus(SUPERVISOR_PERIOD).plus(LATE_TIMER), () -> survivorIds.contains(leaseHolder()));

        awaitProcessedAtLeast(TAKEOVER, ids.size(), Duration.ofSeconds(120));
        assertEquals(ids.size(), StoreCounts.orders(TAKEOVER), "every accepted order exists, once");
        assertEquals(Map.of(LedgerCounts.EACH_ONCE, (long) ids.size()), LedgerCounts.effectsPerOrder(simulator, ids,
                List.of("reserve-inventory", "charge-payment", "arrange-shipping")), "the ledger, orders by what it holds");
        assertEquals(appliedTwiceBefore, simulator.stats().get("appliedTwice").asLong(), simulator.stats().toString());
    }

    private static String leaseHolder() {
        List<String> holder = new ArrayList<>();
        Rows.query("SELECT holder FROM job_lease WHERE name = ? AND expires_at > now()", "supervisor",
                rows -> holder.add(rows.getString(1)));
        return holder.isEmpty() ? null : holder.get(0);
    }

    /** This test's unfinished orders the instance holds a claim on. */
    private static List<String> claimedBy(String instanceId) {
        List<String> orders = new ArrayList<>();
        Rows.query("SELECT s.order_id FROM order_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE o.customer_id LIKE '" + TAKEOVER + "%' AND s.process_state = 'Processing' AND s.locked_by = ?",
                instanceId, rows -> orders.add(rows.getString(1)));
        return orders;
    }

    private static long processed(List<String> orderIds) {
        long[] count = {0};
        Rows.query("SELECT count(*) FROM order_state WHERE process_state = 'Processed' AND order_id = ANY (string_to_array(?, ','))",
                String.join(",", orderIds), rows -> count[0] = rows.getLong(1));
        return count[0];
    }

    /** Supervisor instance → history entries it wrote for these orders (expired attempts it recovered) since then. */
    private static Map<String, Long> recoveredBySupervisor(List<String> orderIds, long sinceDbMillis) {
        Map<String, Long> recoveries = new java.util.TreeMap<>();
        Rows.query("SELECT actor_name, count(*) FROM order_history WHERE actor = 'supervisor'"
                        + " AND at >= to_timestamp(" + sinceDbMillis + " / 1000.0)"
                        + " AND order_id = ANY (string_to_array(?, ',')) GROUP BY actor_name",
                String.join(",", orderIds), rows -> recoveries.put(rows.getString(1), rows.getLong(2)));
        return recoveries;
    }

    private static void awaitCount(String sql, String parameter, long count) throws InterruptedException {
        Poll.until(count + " of: " + sql, Duration.ofSeconds(60), Duration.ofMillis(100),
                () -> TestStack.scalar(sql, parameter), found -> found >= count);
    }

    /**
     * One kill for two states an order can be in. Default-workflow orders between steps: step 1 done and
     * step 2 hanging at the kill; after the restart step 2 is retried and step 1 never called again. And
     * parallel groups: orders of the "forked" workflow (reserve, then pack and invoice in parallel, then
     * confirm) with both branches in flight; after the restart each branch is recovered on its own (its
     * attempt expires and is retried under a new epoch), every such order ends Processed or Compensated.
     * The two sets use disjoint faulted operations (charge-payment; pack-parcel and issue-invoice), so
     * neither's fault touches the other. Nothing is applied twice.
     */
    @Test
    @Order(3)
    void killNineBetweenStepsAndWithBothBranchesOfAGroupInFlightLosesNothingAndAppliesNothingTwice() throws Exception {
        AppServerNode server = runningServer();
        OrdersApi api = new OrdersApi(URI.create(server.baseUrl()));
        SimulatorApi simulator = TestStack.simulator();
        simulator.clearFaults();
        // Step 2 of the default workflow hangs, so every such order has step 1 done and step 2 in flight.
        simulator.fault("charge-payment", "hang", 1.0, 0);
        simulator.fault("pack-parcel", "latency", 1.0, 3_000);
        simulator.fault("issue-invoice", "latency", 1.0, 3_000);
        long appliedTwiceBefore = simulator.stats().get("appliedTwice").asLong();
        List<String> stepped = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            stepped.add(api.submit(STEPPED + i));
        }
        awaitCount("SELECT count(*) FROM step_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE o.customer_id LIKE ? AND s.name = 'reserve-inventory' AND s.state = 'Completed'", STEPPED + "%", 20);
        // Submitted second: both branches run together for a few seconds only, and the kill follows that state
        // at once, while the hanging step keeps the first set between steps (see the shared server's retries).
        List<String> forked = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            forked.add(api.submit(FORKED + i, "forked"));
        }
        awaitCount("SELECT count(*) FROM order_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE o.customer_id LIKE ? AND (SELECT count(*) FROM step_state t WHERE t.order_id = s.order_id"
                + " AND t.state = 'Running' AND t.name IN ('pack-parcel', 'issue-invoice')) = 2", FORKED + "%", 10);

        server.kill9();
        long bothRunning = TestStack.scalar("SELECT count(*) FROM order_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE o.customer_id LIKE ? AND (SELECT count(*) FROM step_state t WHERE t.order_id = s.order_id"
                + " AND t.locked_by IS NOT NULL) = 2", FORKED + "%");
        long betweenSteps = TestStack.scalar("SELECT count(*) FROM step_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " JOIN order_state t ON t.order_id = s.order_id WHERE o.customer_id LIKE ? AND s.name = 'charge-payment'"
                + " AND s.state <> 'Completed' AND t.process_state IN ('Pending', 'Processing')", STEPPED + "%");
        LOG.info("SIGKILLed Payara with " + betweenSteps + " of 20 orders between steps and " + bothRunning
                + " of 20 forked orders running both branches");
        // Pending too: an expired attempt of the hanging step puts its order back to be claimed again.
        assertEquals(20, betweenSteps, () -> "the kill must find every stepped order in flight, step 2 not yet done;"
                + " by state " + StoreCounts.states(STEPPED));
        assertTrue(bothRunning >= 1, "the kill must find orders with both branches in flight");
        simulator.clearFaults();
        server.start();

        for (String id : stepped) {
            api.awaitState(id, Duration.ofSeconds(120), "Processed");
        }
        assertEquals(20, TestStack.scalar("SELECT count(*) FROM step_state s JOIN customer_order o ON o.order_id = s.order_id"
                + " WHERE o.customer_id LIKE ? AND s.name = 'reserve-inventory' AND s.attempts = 1", STEPPED + "%"),
                "step 1 ran once for every order: it was not called again after the restart");
        for (String id : stepped) {
            assertEquals(STEPS, simulator.effects(id).size(), "effects of " + id);
        }
        int processed = 0;
        for (String id : forked) {
            JsonNode order = api.awaitState(id, Duration.ofSeconds(180), "Processed", "Compensated", "Error");
            String state = order.get("processState").asText();
            assertTrue(state.equals("Processed") || state.equals("Compensated"), order.toString());
            if (state.equals("Processed")) {
                processed++;
                List<String> operations = new ArrayList<>();
                simulator.effects(id).forEach(effect -> operations.add(effect.get("operation").asText()));
                assertEquals(List.of("issue-invoice", "pack-parcel", "reserve-inventory", "send-confirmation"),
                        operations.stream().sorted().toList(), "each operation applied once for " + id);
            }
        }
        LOG.info(processed + " of 20 forked orders Processed, the others Compensated");
        assertEquals(appliedTwiceBefore, simulator.stats().get("appliedTwice").asLong(), simulator.stats().toString());
    }

    @Test
    @Order(4)
    void sigtermDuringLoadThenRestartLosesNothingAndAppliesNothingTwice() throws Exception {
        AppServerNode server = runningServer();
        OrdersApi api = new OrdersApi(URI.create(server.baseUrl()));
        SimulatorApi simulator = TestStack.simulator();
        simulator.clearFaults();
        simulator.fault("*", "latency", 1.0, 50);

        List<String> ids = submitConcurrently(api, 100, TERMINATED);
        awaitProcessedAtLeast(TERMINATED, 10, Duration.ofSeconds(60));
        // The log is the shared server's since its first start: what this stop writes comes after this.
        long logBefore = java.nio.file.Files.size(server.logFile());
        server.stop();
        long processedAtStop = processedCount(TERMINATED);
        LOG.info("SIGTERMed Payara with " + processedAtStop + " of 100 orders Processed");
        assertFalse(server.isAlive());
        byte[] logBytes = java.nio.file.Files.readAllBytes(server.logFile());
        String log = new String(logBytes, (int) logBefore, logBytes.length - (int) logBefore, java.nio.charset.StandardCharsets.UTF_8);
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
        Poll.until(count + " orders of " + customerPrefix + "* Processed", timeout, Duration.ofMillis(50),
                () -> processedCount(customerPrefix), processed -> processed >= count);
    }
}
