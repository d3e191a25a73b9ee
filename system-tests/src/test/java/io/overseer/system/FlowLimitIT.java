package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Flow limits hold across instances: two instances limit "limited-call" to 5 calls in flight and 20 starts
 * per second, and 200 orders arrive at both at once while each call takes 150 ms. The simulator never sees
 * more than 5 of its calls at once nor more than 20 arrive in any second of its clock (the agents pace each
 * call's start), no more than 20 attempts start in any second of the database clock (their steps' Running
 * transitions), every order ends Processed with no failure counted (waiting for a slot is not a failure),
 * and the limit's meters and the admin overview show the limit.
 */
class FlowLimitIT {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(FlowLimitIT.class.getName());
    private static final String OPERATION = "limited-call";
    private static final int ORDERS = 200;
    private static final Map<String, String> LIMITS = Map.of(
            "overseer.agent.limit." + OPERATION + ".in-flight", "5",
            "overseer.agent.limit." + OPERATION + ".per-second", "20");

    private final SimulatorApi simulator = TestStack.simulator();
    private final List<AppServerNode> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        SystemServers.stopAll(servers);
        simulator.clearFaults();
    }

    @Test
    void twoInstancesTogetherNeverExceedTheLimitsAndEveryOrderIsProcessed() throws Exception {
        simulator.clearFaults();
        servers.add(SystemServers.payaraMicro("flow-a", LIMITS));
        servers.add(SystemServers.payaraMicro("flow-b", LIMITS));
        SystemServers.startAll(servers);
        List<OrdersApi> apis = servers.stream().map(s -> new OrdersApi(URI.create(s.baseUrl()))).toList();
        simulator.fault(OPERATION, "latency", 1.0, 150);
        simulator.clearTraffic();

        List<String> orders = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            orders.add(apis.get(i % 2).submit("c-limited-" + i, "limited"));
        }
        Poll.until("every limited order finished", Duration.ofSeconds(180), () -> TestStack.scalar(
                "SELECT count(*) FROM order_state s JOIN customer_order o ON o.order_id = s.order_id"
                        + " WHERE o.customer_id LIKE ? AND s.process_state NOT IN ('Processed', 'Compensated', 'Error')",
                "c-limited-%") == 0);

        JsonNode traffic = simulator.traffic().get(OPERATION);
        LOG.info(() -> "Simulator traffic of " + OPERATION + " through two limited instances: " + traffic);
        assertTrue(traffic.get("starts").asLong() >= ORDERS, traffic.toString());
        assertTrue(traffic.get("maxInFlight").asInt() <= 5, "at most 5 calls at once across both instances: " + traffic);
        // Where the service counts them: calls arriving per second of the simulator's clock (the same host's
        // clock as the database's). The agents start calls only in the first 800 ms of a database-clock second
        // (CallPacer), so that one's travel does not carry it into the next.
        assertTrue(traffic.get("maxStartsPerSecond").asInt() <= 20, "at most 20 calls arrive in any second: " + traffic);
        // And where attempts are claimed: each start is its step's Running transition, stamped with the
        // database clock.
        long busiestSecond = TestStack.scalar("SELECT max(n) FROM (SELECT count(*) AS n FROM order_history h"
                + " JOIN customer_order o ON o.order_id = h.order_id WHERE o.customer_id LIKE ?"
                + " AND h.step_name = '" + OPERATION + "' AND h.to_state = 'Running'"
                + " GROUP BY date_trunc('second', h.at)) starts", "c-limited-%");
        LOG.info("Most starts of " + OPERATION + " in one database-clock second: " + busiestSecond);
        assertTrue(busiestSecond <= 20, "at most 20 starts in any second: " + busiestSecond);
        assertEquals(5, traffic.get("maxInFlight").asInt(), "the limit was reached, so it was what held calls back: "
                + traffic);
        for (String orderId : orders) {
            JsonNode order = apis.get(0).get(orderId);
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            assertEquals(0, order.get("failureCount").asInt(), "waiting for a slot is no failure: " + order);
        }
        assertEquals(0, simulator.stats().get("appliedTwice").asLong());
        String metrics = Http.get(apis.get(0).base().resolve("api/metrics"), TestStack.credentials(TestStack.VIEWER)).body();
        assertTrue(Arrays.stream(metrics.split("\n")).anyMatch(line -> line.startsWith("overseer_flow_limited_total")
                && line.contains("operation=\"" + OPERATION + "\"")), "the limit's holds are counted");
        assertTrue(metrics.contains("overseer_flow_in_flight{operation=\"" + OPERATION + "\"}"), "in-flight gauge");
        assertTrue(metrics.contains("overseer_flow_waiting{operation=\"" + OPERATION + "\"}"), "waiting gauge");
        JsonNode overview = Http.get(apis.get(1).base().resolve("api/admin/overview"),
                TestStack.credentials(TestStack.VIEWER)).json();
        JsonNode limit = overview.get("flowLimits").get(0);
        assertEquals(OPERATION, limit.get("operation").asText(), overview.toString());
        assertEquals(5, limit.get("inFlightLimit").asInt());
        assertEquals(20, limit.get("perSecondLimit").asInt());
        assertEquals(0, limit.get("waiting").asLong(), "nothing waits once every order is done");
    }
}
