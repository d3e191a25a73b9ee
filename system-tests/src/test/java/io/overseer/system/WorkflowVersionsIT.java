package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Versioned definitions across restarts: orders in flight under version 1 of a workflow (their first
 * step done, the second held back by a paused operation); the instance stopped, the definition changed
 * (a step added, two reordered) and the instance started again. The old orders finish under version 1,
 * calling its operations in its order; a new order runs version 2. A stored version that unfinished orders
 * use but that no longer reads back stops the deployment, naming those orders.
 */
class WorkflowVersionsIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Http.Credentials OPERATOR = TestStack.credentials(TestStack.OPERATOR);
    private static final String V1 = """
            {"workflows": [{"name": "versioned", "steps": [
              {"name": "ver-reserve", "compensation": "ver-release"},
              {"name": "ver-charge", "compensation": "ver-refund"}]}]}""";
    private static final String V2 = """
            {"workflows": [{"name": "versioned", "steps": [
              {"name": "ver-charge", "compensation": "ver-refund"},
              {"name": "ver-reserve", "compensation": "ver-release"},
              {"name": "ver-ship", "compensation": "ver-unship"}]}]}""";

    private final SimulatorApi simulator = TestStack.simulator();
    private AppServerNode server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void ordersInFlightFinishUnderTheirVersionAfterTheDefinitionChangesAndNewOnesRunTheNewest() throws Exception {
        simulator.clearFaults();
        Path v1File = Files.writeString(TestStack.workDir().resolve("versioned-v1.json"), V1);
        Path v2File = Files.writeString(TestStack.workDir().resolve("versioned-v2.json"), V2);

        server = start("versions-v1", v1File);
        OrdersApi api = api();
        assertEquals(200, Http.post(api.base().resolve("api/admin/pauses"), "application/json",
                "{\"scope\":\"ver-charge\",\"reason\":\"hold orders mid-flight\"}", OPERATOR).status());
        List<String> old = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            old.add(api.submit("c-versioned-" + i, "versioned"));
        }
        for (String orderId : old) {
            Poll.until("order " + orderId + " parked after its first step", WAIT,
                    () -> "ver-charge".equals(api.get(orderId).path("pausedOn").asText()));
        }
        String v1 = api.get(old.get(0)).get("workflowVersion").asText();
        assertTrue(api.history(old.get(0)).get(0).get("reason").asText().contains("versioned@" + v1),
                "the history names the version: " + api.history(old.get(0)));
        server.stop();

        // A version that unfinished orders use and that no longer reads back stops the deployment, naming them.
        String stored = definition(v1);
        TestStack.update("UPDATE workflow_version SET definition = replace(definition, 'ver-charge', 'ver-pay')"
                + " WHERE workflow = 'versioned' AND version = ?", v1);
        try {
            AppServerNode tampered = SystemServers.payaraMicro("versions-tampered",
                    Map.of("overseer.workflows.file", v2File.toString()));
            try {
                IllegalStateException failure = assertThrows(IllegalStateException.class, tampered::start);
                assertTrue(failure.getMessage().contains("the application failed to deploy"), failure.getMessage());
                String log = Files.readString(TestStack.workDir().resolve("versions-tampered").resolve("payara.log"));
                assertTrue(log.contains("Stored workflow versioned@" + v1 + " reads back as version"), "log names the version");
                assertTrue(log.contains("unfinished orders run it: 3 (" + String.join(", ", old) + ")"),
                        "log names the orders");
            } finally {
                tampered.kill9();
            }
        } finally {
            TestStack.update("UPDATE workflow_version SET definition = ? WHERE workflow = 'versioned' AND version = ?",
                    stored, v1);
        }

        server = start("versions-v2", v2File);
        OrdersApi restarted = api();
        String fresh = restarted.submit("c-versioned-new", "versioned");
        String v2 = restarted.get(fresh).get("workflowVersion").asText();
        assertNotEquals(v1, v2);
        assertEquals(200, Http.post(restarted.base().resolve("api/admin/pauses/ver-charge/resume"), "application/json",
                "{\"reason\":\"go on\"}", OPERATOR).status());

        for (String orderId : old) {
            JsonNode order = restarted.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            assertEquals(v1, order.get("workflowVersion").asText());
            assertEquals(List.of("ver-reserve", "ver-charge"), operations(orderId), "version 1's steps, in its order");
        }
        JsonNode order = restarted.awaitState(fresh, WAIT, "Processed", "Error", "Compensated");
        assertEquals("Processed", order.get("processState").asText(), order.toString());
        assertEquals(List.of("ver-charge", "ver-reserve", "ver-ship"), operations(fresh), "version 2's steps");
    }

    private AppServerNode start(String name, Path workflows) throws Exception {
        AppServerNode node = SystemServers.payaraMicro(name, Map.of("overseer.workflows.file", workflows.toString()));
        node.start();
        return node;
    }

    private OrdersApi api() {
        return new OrdersApi(URI.create(server.baseUrl()));
    }

    private List<String> operations(String orderId) {
        List<String> operations = new ArrayList<>();
        simulator.effects(orderId).forEach(effect -> operations.add(effect.get("operation").asText()));
        return operations;
    }

    private static String definition(String version) throws Exception {
        try (var db = TestStack.db(); var query = db.prepareStatement(
                "SELECT definition FROM workflow_version WHERE workflow = 'versioned' AND version = ?")) {
            query.setString(1, version);
            try (var rows = query.executeQuery()) {
                assertTrue(rows.next(), "version " + version + " stored");
                return rows.getString(1);
            }
        }
    }
}
