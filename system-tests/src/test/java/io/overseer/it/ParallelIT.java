package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.RemoteServiceCircuit;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Parallel groups, seen from outside: the "forked" workflow reserves, then packs and invoices in parallel
 * (group "fulfil", 8 s complete-by each), then sends a confirmation. Its branches' calls overlap at the
 * simulator; the confirmation waits for both. A branch refused for good undoes the other branch and the
 * earlier step, newest first — after the other completed, or, abandoned while it ran, once its
 * complete-by has passed, so that its late call cannot overtake its undo.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ParallelIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** How long into its call a branch is refused (the compensation tests): the other branch is done by then. */
    private static final long CALL_MS = 2_000;
    /**
     * The branches' calls in the overlap test: one after the other their answers would be this far apart at
     * least. 4 s, not 2: on a loaded two-core machine the second branch's request was seen to start 2.0 s
     * after the first although both were dispatched together.
     */
    private static final long BRANCH_CALL_MS = 4_000;

    @ArquillianResource
    URL base;

    private final SimulatorApi simulator = TestStack.simulator();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TheWar.deployment();
    }

    @AfterEach
    void clearFaults() {
        simulator.clearFaults();
    }

    /** One server serves every class: the last one's faults may have left the remote service's circuit open. */
    @BeforeEach
    void remoteServiceCircuitClosed() {
        RemoteServiceCircuit.awaitClosed(URI.create(base.toString()));
    }

    private OrdersApi api() {
        return new OrdersApi(URI.create(base.toString()));
    }

    @Test
    void theBranchesOfAGroupRunAtOnceAndTheNextStepWaitsForBoth() {
        simulator.clearFaults();
        simulator.fault("pack-parcel", "latency", 1.0, BRANCH_CALL_MS);
        simulator.fault("issue-invoice", "latency", 1.0, BRANCH_CALL_MS);
        OrdersApi api = api();
        String orderId = api.submit("c-forked", "forked");

        JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Compensated", "Error");
        assertEquals("Processed", order.get("processState").asText(), order.toString());
        Map<String, Instant> applied = appliedAt(orderId);
        assertEquals(List.of("issue-invoice", "pack-parcel", "reserve-inventory", "send-confirmation"),
                applied.keySet().stream().sorted().toList(), applied.toString());
        long apart = Math.abs(Duration.between(applied.get("pack-parcel"), applied.get("issue-invoice")).toMillis());
        assertTrue(apart < BRANCH_CALL_MS, "both branches answered within " + apart + " ms of each other: their "
                + BRANCH_CALL_MS + " ms calls overlapped (one after the other they would be " + BRANCH_CALL_MS
                + " ms apart at least)");
        Instant lastBranch = applied.get("pack-parcel").isAfter(applied.get("issue-invoice"))
                ? applied.get("pack-parcel") : applied.get("issue-invoice");
        assertTrue(applied.get("send-confirmation").isAfter(lastBranch), "the next step waited for both: " + applied);

        // The order view names each step's group.
        Map<String, String> groups = new HashMap<>();
        order.get("steps").forEach(step -> groups.put(step.get("name").asText(), step.get("group").isNull()
                ? "-" : step.get("group").asText()));
        assertEquals(Map.of("reserve-inventory", "-", "pack-parcel", "fulfil", "issue-invoice", "fulfil",
                "send-confirmation", "-"), groups);
    }

    @Test
    void aBranchRefusedAfterItsSiblingCompletedUndoesTheSiblingThenTheEarlierStep() {
        simulator.clearFaults();
        simulator.fault("issue-invoice", "fatal", 1.0, CALL_MS); // refused 2 s in: packing is done by then
        OrdersApi api = api();
        String orderId = api.submit("c-forked-refused", "forked");

        JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Compensated", "Error");
        assertEquals("Compensated", order.get("processState").asText(), order.toString());
        assertEquals(List.of("reserve-inventory", "pack-parcel", "unpack-parcel", "release-inventory"),
                operationsInOrder(orderId), "undone newest first; the refused invoice was never applied, so not voided");
        assertEquals("Failed", stepState(order, "issue-invoice"));
        assertEquals("Compensated", stepState(order, "pack-parcel"));
    }

    @Test
    void aBranchRefusedWhileItsSiblingRunsAbandonsItAndUndoesItAfterItsCompleteBy() {
        simulator.clearFaults();
        simulator.fault("pack-parcel", "latency", 1.0, 4_000); // still running when the invoice is refused
        simulator.fault("issue-invoice", "fatal", 1.0, 0);
        OrdersApi api = api();
        String orderId = api.submit("c-forked-abandoned", "forked");

        JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Compensated", "Error");
        assertEquals("Compensated", order.get("processState").asText(), order.toString());
        String history = api.history(orderId).toString();
        assertTrue(history.contains("abandoned: issue-invoice failed"), history);
        // Packing was applied by its late call (its reply was stale), and is undone after it: never before.
        Poll.until("the abandoned packing's late call to be applied and undone", WAIT,
                () -> operationsInOrder(orderId).contains("unpack-parcel"));
        List<String> operations = operationsInOrder(orderId);
        assertEquals(List.of("reserve-inventory", "pack-parcel", "unpack-parcel", "release-inventory"), operations);
        assertEquals(0, simulator.stats().get("appliedTwice").asLong());
    }

    private static String stepState(JsonNode order, String name) {
        for (JsonNode step : order.get("steps")) {
            if (step.get("name").asText().equals(name)) {
                return step.get("state").asText();
            }
        }
        throw new AssertionError("no step " + name + " in " + order);
    }

    /** Each operation applied for the order, with when the simulator applied it. */
    private Map<String, Instant> appliedAt(String orderId) {
        Map<String, Instant> applied = new HashMap<>();
        simulator.effects(orderId).forEach(effect -> applied.put(effect.get("operation").asText(),
                Instant.parse(effect.get("appliedAt").asText())));
        return applied;
    }

    private List<String> operationsInOrder(String orderId) {
        List<JsonNode> effects = new ArrayList<>();
        simulator.effects(orderId).forEach(effects::add);
        effects.sort((a, b) -> Instant.parse(a.get("appliedAt").asText()).compareTo(Instant.parse(b.get("appliedAt").asText())));
        return effects.stream().map(effect -> effect.get("operation").asText()).toList();
    }
}
