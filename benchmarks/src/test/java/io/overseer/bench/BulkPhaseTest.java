package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BulkPhaseTest {

    @Test
    void theBenchsServerLoadsNoopAndASingleChargeThatStopsInError() throws Exception {
        JsonNode workflows = new ObjectMapper().readTree(BenchStack.workflowsJson()).path("workflows");
        List<String> names = new ArrayList<>();
        workflows.forEach(w -> names.add(w.path("name").asText()));
        assertEquals(List.of("noop", BulkPhase.WORKFLOW), names);
        JsonNode steps = workflows.get(1).path("steps");
        assertEquals(1, steps.size());
        assertEquals(BulkPhase.OPERATION, steps.get(0).path("name").asText());
        assertEquals("error", steps.get(0).path("onExhausted").asText()); // Error, not compensated: a resubmit's target
    }

    @Test
    void anAttributeThatWouldNeedJsonEscapingIsRefused() {
        RestOrders rest = new RestOrders("http://127.0.0.1:1");
        rest.submitter("c-", BulkPhase.WORKFLOW, "batch", "bench-abc12"); // plain: accepted
        assertThrows(IllegalArgumentException.class, () -> rest.submitter("c-", null, "batch", "a\"b"));
        assertThrows(IllegalArgumentException.class, () -> rest.submitter("c-", null, "Batch", "x"));
    }
}
