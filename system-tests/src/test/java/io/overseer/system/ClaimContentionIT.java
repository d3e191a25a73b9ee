package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Two application instances on one PostgreSQL, one broker and the simulator, and a flood of single-step
 * orders submitted over REST to both (half each) by {@value #CLIENTS} client threads as fast as they go.
 * Both instances' schedulers (dispatch hints and stranded-order pollers) compete for the same records;
 * every order must be claimed exactly once — one task-level Pending → Processing transition in its
 * history — by one of the two, both must have claimed some, every order ends Processed, none is lost,
 * and the simulator applies each effect once.
 *
 * <p>The order count is the system property {@code overseer.claim.orders} (default 2,000, which keeps the
 * CI run within its budget: ClusterIT covers three instances as well), e.g.
 * {@code -Doverseer.claim.orders=10000} for the long run (255 s in CI's stack on two cores). Elapsed time
 * and orders/s are printed, never asserted.
 *
 * <p>Deadlines are set long (complete-by 5 minutes) so that no attempt expires in the backlog of a
 * busy two-core machine: an expiry is retried with a new claim, legitimately, and would hide what this
 * test looks for — two claims of one order by competing schedulers.
 */
class ClaimContentionIT {

    private static final Logger LOG = Logger.getLogger(ClaimContentionIT.class.getName());
    private static final int ORDERS = Integer.getInteger("overseer.claim.orders", 2_000);
    private static final int CLIENTS = 32;
    private static final String WORKFLOW = "single-charge";
    private static final Duration ALL_DONE = Duration.ofMinutes(10);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    private static final String FIRST_ID = "claim-contention-a";
    private static final String SECOND_ID = "claim-contention-b";

    private AppServerNode first;
    private AppServerNode second;
    private String prefix;

    @AfterEach
    void stopServers() {
        if (first != null) {
            first.stop();
        }
        if (second != null) {
            second.stop();
        }
        LeftoverOrders.park(prefix, "ClaimContentionIT");
    }

    @Test
    void twoInstancesClaimEveryOrderExactlyOnce() throws Exception {
        prefix = "c-claim-" + Long.toHexString(System.nanoTime()) + "-";
        SimulatorApi simulator = TestStack.simulator();
        simulator.clearFaults();
        first = SystemServers.payaraMicro("claim-first", properties(FIRST_ID));
        first.start();
        second = SystemServers.payaraMicro("claim-second", properties(SECOND_ID));
        second.start();
        List<OrdersApi> apis = List.of(new OrdersApi(URI.create(first.baseUrl())), new OrdersApi(URI.create(second.baseUrl())));
        long appliedBefore = simulator.stats().get("applied").asLong();

        // Submit: 32 threads, each taking the next order number, alternating between the instances.
        LOG.info("Submitting " + ORDERS + " " + WORKFLOW + " orders to two instances with " + CLIENTS + " client threads");
        long t0 = System.nanoTime();
        String[] ids = new String[ORDERS];
        ConcurrentLinkedQueue<String> refused = new ConcurrentLinkedQueue<>();
        AtomicInteger next = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                running.add(clients.submit(() -> {
                    for (int i = next.getAndIncrement(); i < ORDERS; i = next.getAndIncrement()) {
                        OrdersApi api = apis.get(i % 2);
                        Http.Reply reply = api.submitRetryingBusy(OrdersApi.order(prefix + i, WORKFLOW));
                        if (reply.status() == 202) {
                            ids[i] = reply.json().get("orderId").asText();
                        } else {
                            refused.add("order " + i + " to " + api.base() + ": " + reply.status() + " " + reply.body());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get(); // each POST is bounded by Http's 30 s timeout
            }
        } finally {
            clients.shutdownNow();
        }
        long submitNanos = System.nanoTime() - t0;
        long submitted = java.util.Arrays.stream(ids).filter(java.util.Objects::nonNull).count();
        LOG.info(String.format("Submitted %d of %d in %.1f s (%.0f orders/s); refused %d",
                submitted, ORDERS, submitNanos / 1e9, submitted / (submitNanos / 1e9), refused.size()));
        assertTrue(refused.isEmpty(), refused.size() + " submissions refused, e.g. " + refused.stream().limit(5).toList());

        // Wait until every order rests (Processed, or a state it would stay in), polling PostgreSQL.
        StoreCounts.awaitAtRest(prefix, ORDERS, ALL_DONE, PROGRESS_EVERY, t0);
        long totalNanos = System.nanoTime() - t0;
        LOG.info(String.format("All %d orders at rest %.1f s after the first submission: %.0f orders/s end to end",
                ORDERS, totalNanos / 1e9, ORDERS / (totalNanos / 1e9)));

        Map<String, Long> states = StoreCounts.states(prefix);
        Map<Long, Long> claimsPerOrder = StoreCounts.claimsPerOrder(prefix);
        List<String> claimedMoreThanOnce = StoreCounts.claimedMoreThanOnce(prefix);
        Map<String, Long> claimsByInstance = StoreCounts.claimsByInstance(prefix);
        long ordersStored = StoreCounts.orders(prefix);
        long distinctCustomers = StoreCounts.distinctCustomers(prefix);
        JsonNode stats = simulator.stats();
        long applied = stats.get("applied").asLong() - appliedBefore;
        LOG.info("Orders stored " + ordersStored + " by state " + states + "; claims per order " + claimsPerOrder
                + "; claims by instance " + claimsByInstance + "; simulator applied " + applied + ", " + stats);

        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertEquals(ORDERS, ordersStored, "orders stored: none lost, none made twice"));
        checks.add(() -> assertEquals(ORDERS, distinctCustomers, "one order per submission"));
        checks.add(() -> assertEquals(Map.of("Processed", (long) ORDERS), states, "every order Processed"));
        checks.add(() -> assertEquals(Map.of(1L, (long) ORDERS), claimsPerOrder,
                "claims (task-level Pending → Processing) per order → number of orders; claimed more than once, e.g. "
                        + claimedMoreThanOnce));
        checks.add(() -> assertEquals(java.util.Set.of(FIRST_ID, SECOND_ID), claimsByInstance.keySet(),
                "both instances claimed orders, and nobody else: " + claimsByInstance));
        checks.add(() -> assertEquals(0, stats.get("appliedTwice").asLong(), "effects applied twice: " + stats));
        checks.add(() -> assertEquals(ORDERS, applied, "effects applied (one per order): " + stats));
        assertAll(checks.stream());
    }

    /** Long deadlines (see the class comment) and an instance id to tell the two apart in the history. */
    private static Map<String, String> properties(String instanceId) {
        return Map.of(
                "overseer.instance-id", instanceId,
                "overseer.scheduler.complete-by", "PT5M");
    }
}
