package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Metrics;
import io.overseer.support.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What an agent promises, against the simulator's faults ("single-charge": one step, 3 s complete-by,
 * retries get 10 s): a call slower than the deadline is abandoned silently and the supervisor's retry
 * completes it with the effect applied once; a burst of 5xx is retried with backoff inside the attempt;
 * a refusal is reported at once, without a retry.
 */
class AgentGuaranteesIT extends DeployedWarIT {

    private static final String SINGLE = "single-charge";
    private static final String PATIENT = "patient-charge";
    private static final String OPERATION = "charge-payment";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void latencyAboveTheDeadlineIsAbandonedSilentlyRetriedByTheSupervisorAndAppliedOnce() {
        double abandonedBefore = failures(Metrics.scrape(root), "deadline-abandoned");
        long replaysBefore = simulator.stats().get("replays").asLong();
        simulator.fault(OPERATION, "latency", 1.0, 4_000);
        String orderId = api.submit("c-slow", SINGLE);

        Poll.until("the first attempt to expire", WAIT, () -> api.get(orderId).get("failureCount").asInt() >= 1);
        Poll.until("the agent to abandon the call at its deadline", WAIT,
                () -> failures(Metrics.scrape(root), "deadline-abandoned") > abandonedBefore);
        simulator.clearFaults();
        JsonNode order = api.awaitState(orderId, WAIT, "Processed");

        assertTrue(order.get("failureCount").asInt() >= 1, order.toString());
        // The abandoned call is still being served; whichever of it and the retry comes second is a replay.
        Poll.until("the abandoned call and the retry to have both reached the ledger", WAIT,
                () -> simulator.stats().get("replays").asLong() > replaysBefore);
        assertEquals(1, simulator.effects(orderId).size(), "applied once, by the slow call or the retry");
        assertEquals(0, simulator.stats().get("appliedTwice").asLong());
        JsonNode history = api.history(orderId);
        assertTrue(history.toString().contains("complete-by passed"), history.toString());
    }

    @Test
    void aBurstOfServerErrorsIsRetriedWithBackoffInsideTheAttempt() {
        Metrics before = Metrics.scrape(root);
        simulator.fault(OPERATION, "error", 1.0, 0);
        // A minute to complete, not 3 s: the retries must fit in the attempt on a machine busy with another
        // fork's servers (seen: two backoffs and a scrape took over 3 s, and the attempt expired).
        String orderId = api.submit("c-burst", PATIENT);

        Poll.until("two retries inside the attempt", WAIT, () -> retries(Metrics.scrape(root)) >= retries(before) + 2);
        simulator.clearFaults();
        JsonNode order = api.awaitState(orderId, WAIT, "Processed");

        assertEquals(0, order.get("failureCount").asInt(), "no attempt expired: " + order);
        assertEquals(1, order.get("steps").get(0).get("attempts").asInt(), order.toString());
        assertEquals(1, simulator.effects(orderId).size());
        Metrics after = Metrics.scrape(root);
        assertTrue(failures(after, "transient") >= failures(before, "transient") + 2, after.text());
    }

    /**
     * More calls hanging than the agent takes deliveries at once (16 sessions an instance), each in a delivery of
     * its own: every request still reaches the service, because a delivery lets its session go two seconds into
     * its calls once workers have them (agent/DeliveryHold). Held for their complete-by (a minute here), the
     * first sixteen kept the seventeenth request in the queue for that minute, and with it every other
     * operation's.
     */
    @Test
    void callsHangingInMoreDeliveriesThanTheAgentHasSessionsHoldUpNoLaterRequest() {
        simulator.fault(OPERATION, "hang", 1.0, 0);
        long faultsBefore = simulator.stats().get("faultsInjected").asLong();
        List<String> orders = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            orders.add(api.submit("c-hang-" + i, PATIENT));
            long reached = faultsBefore + i;
            // One at a time, so that each request leaves in a message, and a delivery, of its own.
            Poll.until("call " + i + " of 20 to reach the hanging service", Duration.ofSeconds(20),
                    () -> simulator.stats().get("faultsInjected").asLong() >= reached);
        }
        simulator.clearFaults(); // the held calls are dropped unanswered: a transient fault, retried in the attempt
        for (String orderId : orders) {
            JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error");
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            assertEquals(1, simulator.effects(orderId).size(), "applied once: " + orderId);
        }
    }

    @Test
    void aRefusalIsReportedAtOnceWithoutARetry() {
        Metrics before = Metrics.scrape(root);
        long faultsBefore = simulator.stats().get("faultsInjected").asLong();
        simulator.fault(OPERATION, "fatal", 1.0, 0);
        String orderId = api.submit("c-refused", SINGLE);

        JsonNode order = api.awaitState(orderId, WAIT, "Error", "Processed");

        assertEquals("Error", order.get("processState").asText());
        assertEquals(1, simulator.stats().get("faultsInjected").asLong() - faultsBefore, "one call, no retry");
        Metrics after = Metrics.scrape(root);
        assertEquals(retries(before), retries(after), after.text());
        assertEquals(failures(before, "nontransient") + 1, failures(after, "nontransient"), after.text());
    }

    private static double failures(Metrics m, String kind) {
        return m.sum("overseer_agent_failures_total", "operation", OPERATION, "kind", kind);
    }

    private static double retries(Metrics m) {
        return m.sum("overseer_agent_retries_total", "operation", OPERATION);
    }
}
