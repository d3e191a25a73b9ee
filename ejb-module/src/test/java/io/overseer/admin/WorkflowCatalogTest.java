package io.overseer.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowParser;
import io.overseer.workflow.WorkflowVersions;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkflowCatalogTest {

    private static final OffsetDateTime T = OffsetDateTime.parse("2026-11-28T06:00:00Z");
    private final WorkflowParser parser = new WorkflowParser(Duration.ofSeconds(30), 3);

    private WorkflowDefinition parse(String steps) {
        return parser.parseOne("{\"name\":\"w\",\"steps\":" + steps + "}", "test");
    }

    @Test
    void aStepShowsWhatDecidesHowItRuns() {
        WorkflowDefinition w = parse("""
                [{"name":"reserve","compensation":"release"},
                 {"name":"wait","event":"approval","completeBy":"PT1H"},
                 {"group":"dispatch","steps":[
                   {"name":"ship","compensation":"unship","completeBy":"PT20S","maxRetries":5,
                    "backoff":{"initial":"PT2S","cap":"PT1M"},"onExhausted":"error","heartbeat":"PT5S"},
                   {"name":"invoice"}]}]""");

        WorkflowCatalog.Definition view = WorkflowCatalog.view(w, true);

        assertEquals(w.version(), view.version());
        assertTrue(view.current());
        assertEquals("reserve → wait → [ship ∥ invoice]", view.outline());
        WorkflowCatalog.Step reserve = view.steps().get(0);
        assertEquals("reserve", reserve.operation());
        assertEquals("release", reserve.compensation());
        assertNull(reserve.group());
        assertNull(reserve.backoff(), "no backoff: retried at once");
        assertEquals("PT30S", reserve.completeBy());
        assertEquals(3, reserve.maxRetries());
        assertEquals("compensate", reserve.onExhausted());
        WorkflowCatalog.Step wait = view.steps().get(1);
        assertNull(wait.operation());
        assertEquals("approval", wait.event());
        assertEquals("PT1H", wait.completeBy());
        WorkflowCatalog.Step ship = view.steps().get(2);
        assertEquals("dispatch", ship.group());
        assertEquals(new WorkflowCatalog.Backoff("PT2S", "PT1M"), ship.backoff());
        assertEquals("error", ship.onExhausted());
        assertEquals("PT5S", ship.heartbeat());
        assertEquals(5, ship.maxRetries());
        WorkflowCatalog.Step invoice = view.steps().get(3);
        assertEquals("dispatch", invoice.group());
        assertNull(invoice.compensation(), "nothing undoes it");
    }

    @Test
    void eachWorkflowListsItsCurrentVersionAndTheStoredOnesOldestFirst() {
        WorkflowDefinition now = parse("[{\"name\":\"b\"},{\"name\":\"a\"}]");
        List<WorkflowVersions.Stored> stored = List.of(
                new WorkflowVersions.Stored("gone", "000000000001", T.minusDays(3)),
                new WorkflowVersions.Stored("w", "0123456789ab", T.minusDays(2)),
                new WorkflowVersions.Stored("w", now.version(), T.minusDays(1)));

        List<WorkflowCatalog.Workflow> catalog = WorkflowCatalog.catalog(List.of(now), stored);

        assertEquals(List.of("gone", "w"), catalog.stream().map(WorkflowCatalog.Workflow::name).toList());
        WorkflowCatalog.Workflow gone = catalog.get(0);
        assertNull(gone.current(), "no longer defined: only its stored version");
        assertEquals(1, gone.versions().size());
        assertFalse(gone.versions().get(0).current());
        WorkflowCatalog.Workflow w = catalog.get(1);
        assertEquals(now.version(), w.current());
        assertEquals("b → a", w.outline());
        assertEquals(List.of("0123456789ab", now.version()), w.versions().stream().map(WorkflowCatalog.Version::version).toList());
        assertEquals(List.of(false, true), w.versions().stream().map(WorkflowCatalog.Version::current).toList());
    }

    @Test
    void aCurrentDefinitionNotYetStoredIsListedToo() {
        WorkflowDefinition now = parse("[{\"name\":\"a\"}]");

        List<WorkflowCatalog.Workflow> catalog = WorkflowCatalog.catalog(List.of(now), List.of());

        assertEquals(List.of(new WorkflowCatalog.Version(now.version(), null, true)), catalog.get(0).versions());
    }
}
