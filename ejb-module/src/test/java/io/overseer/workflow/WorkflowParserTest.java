package io.overseer.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkflowParserTest {

    private final WorkflowParser parser = new WorkflowParser(Duration.ofSeconds(30), 3);

    @Test
    void theBuiltInOrderWorkflowHasThreeCompensatedSteps() throws IOException {
        String json;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(WorkflowRegistry.BUILT_IN)) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        WorkflowDefinition order = parser.parse(json, "built-in").get(0);

        assertEquals("order", order.name());
        assertEquals(List.of("reserve-inventory", "charge-payment", "arrange-shipping"), order.stepNames());
        assertEquals(List.of("release-inventory", "refund-payment", "cancel-shipment"),
                order.steps().stream().map(s -> s.compensationOperation().orElseThrow()).toList());
        assertEquals(Duration.ofSeconds(30), order.step("charge-payment").completeBy());
        assertEquals(3, order.step("charge-payment").maxRetries());
    }

    @Test
    void aHeartbeatMustBeShorterThanTheCompleteBy() {
        StepDefinition step = parser.parse("""
                {"workflows":[{"name":"w","steps":[{"name":"a","completeBy":"PT60S","heartbeat":"PT5S"}]}]}""", "t")
                .get(0).step("a");
        assertEquals(Duration.ofSeconds(5), step.heartbeat());
        WorkflowDefinitionException e = assertThrows(WorkflowDefinitionException.class, () -> parser.parse("""
                {"workflows":[{"name":"w","steps":[{"name":"a","completeBy":"PT5S","heartbeat":"PT5S"}]}]}""", "t"));
        assertTrue(e.getMessage().contains("step 'a': heartbeat (PT5S) must be shorter than completeBy (PT5S)"),
                e.getMessage());
    }

    @Test
    void aStepThatWaitsForAnEventCallsNothingAndNamesItsOwnDeadline() {
        StepDefinition step = parser.parse("""
                {"workflows":[{"name":"w","steps":[{"name":"a"},
                 {"name":"wait","event":"approval","completeBy":"PT1H","onExhausted":"error"}]}]}""", "t")
                .get(0).step("wait");
        assertTrue(step.awaitsEvent());
        assertEquals("approval", step.event());
        assertNull(step.operation());
        assertEquals(0, step.maxRetries());
        for (String[] bad : new String[][] {
                {"{\"name\":\"wait\",\"event\":\"approval\",\"operation\":\"x\",\"completeBy\":\"PT1H\"}",
                        "waits for an event and calls no remote operation, so 'operation' is not allowed"},
                {"{\"name\":\"wait\",\"event\":\"approval\"}", "needs its own completeBy"},
                {"{\"name\":\"wait\",\"event\":\"approval\",\"completeBy\":\"PT1H\",\"compensation\":\"undo\"}",
                        "compensation must be \"none\""},
                {"{\"name\":\"wait\",\"event\":\"approval\",\"completeBy\":\"PT1H\",\"maxRetries\":2}",
                        "maxRetries must be 0"},
                {"{\"name\":\"wait\",\"event\":\"approval\",\"completeBy\":\"PT1H\"},"
                        + "{\"name\":\"again\",\"event\":\"approval\",\"completeBy\":\"PT1H\"}",
                        "event 'approval' is awaited by more than one step"}}) {
            WorkflowDefinitionException e = assertThrows(WorkflowDefinitionException.class, () -> parser.parse(
                    "{\"workflows\":[{\"name\":\"w\",\"steps\":[" + bad[0] + "]}]}", "t"), bad[0]);
            assertTrue(e.getMessage().contains(bad[1]) && e.getMessage().contains("workflow 'w'"), e.getMessage());
        }
    }

    @Test
    void readsEveryFieldOfAStep() {
        StepDefinition step = parser.parse("""
                {"workflows":[{"name":"w","steps":[{"name":"a","operation":"op-a","compensation":"none",
                 "completeBy":"PT5S","maxRetries":1,"backoff":{"initial":"PT1S","cap":"PT8S"},"onExhausted":"error"}]}]}
                """, "t").get(0).steps().get(0);

        assertEquals(new StepDefinition("a", "op-a", null, Duration.ofSeconds(5), 1, Duration.ofSeconds(1),
                Duration.ofSeconds(8), StepDefinition.OnExhausted.ERROR), step);
        assertNull(step.compensation());
        assertEquals(Duration.ofSeconds(8), step.retryDelay(10));
    }

    @Test
    void malformedDefinitionsAreRefusedSayingWhere() {
        assertRefused("{\"workflows\":[{\"name\":\"w\",\"steps\":[]}]}", "workflow 'w': needs at least one step");
        assertRefused("{\"workflows\":[{\"name\":\"w\",\"steps\":[{\"name\":\"a\",\"retries\":2}]}]}", "unknown field 'retries'");
        assertRefused("{\"workflows\":[{\"name\":\"w\",\"steps\":[{\"name\":\"a\"},{\"name\":\"a\"}]}]}", "appears twice");
        assertRefused("{\"workflows\":[{\"name\":\"w\",\"steps\":[{\"name\":\"a\",\"completeBy\":\"30s\"}]}]}", "ISO-8601");
        assertRefused("{\"workflows\":[{\"name\":\"W X\",\"steps\":[{\"name\":\"a\"}]}]}", "must match");
        assertRefused("{\"workflows\":[{\"name\":\"w\",\"steps\":[{\"name\":\"a\",\"onExhausted\":\"retry\"}]}]}", "onExhausted");
        assertRefused("{\"workflows\":[{\"name\":\"w\",\"steps\":[{\"name\":\"a\",\"maxRetries\":-1}]}]}", "maxRetries");
        assertRefused("[1,2]", "not a JSON object");
        assertRefused("{\"workflows\":[{\"name\":\"w\",\"steps\":[{\"name\":\"a\",\"compensation\":\"b\"},{\"name\":\"b\"}]}]}",
                "operation 'b' is used more than once");
    }

    private void assertRefused(String json, String expected) {
        WorkflowDefinitionException e = assertThrows(WorkflowDefinitionException.class, () -> parser.parse(json, "t"));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void aParallelGroupRunsItsStepsTogetherAndItsCanonicalFormReadsBackToTheSameVersion() {
        WorkflowDefinition forked = parser.parse("""
                {"workflows":[{"name":"w","steps":[{"name":"a"},
                 {"group":"both","steps":[{"name":"b","compensation":"undo-b"},{"name":"c","maxRetries":1}]},
                 {"name":"d"}]}]}""", "t").get(0);
        assertEquals(List.of("a", "b", "c", "d"), forked.stepNames());
        assertEquals(List.of("b", "c"), forked.stage("c"));
        assertEquals(List.of("a"), forked.stage("a"));
        assertEquals("both", forked.step("b").group());
        assertEquals("a → [b ∥ c] → d", forked.outline());
        WorkflowDefinition stored = parser.parseOne(forked.canonicalJson(), "stored");
        assertEquals(forked, stored);
        assertEquals(forked.version(), stored.version());
        assertTrue(forked.canonicalJson().contains("{\"group\":\"both\",\"steps\":["), forked.canonicalJson());
    }

    @Test
    void anInvalidGroupFailsTheDefinitionNamingTheWorkflowAndTheGroup() {
        for (String[] bad : new String[][] {
                {"{\"group\":\"g\",\"steps\":[{\"name\":\"b\"}]}", "workflow 'w', group 'g': a parallel group needs at least two steps, has 1"},
                {"{\"group\":\"g\",\"steps\":[{\"name\":\"b\"},{\"name\":\"wait\",\"event\":\"ok\",\"completeBy\":\"PT1H\"}]}",
                        "group 'g', step 'wait': waits for an event, which a parallel group cannot hold"},
                {"{\"group\":\"g\",\"steps\":[{\"name\":\"b\"},{\"group\":\"h\",\"steps\":[]}]}", "group 'g': groups cannot nest"},
                {"{\"group\":\"g\",\"steps\":[{\"name\":\"b\"},{\"name\":\"c\"}]},{\"group\":\"g\",\"steps\":[{\"name\":\"d\"},{\"name\":\"e\"}]}",
                        "group 'g': appears twice"},
                {"{\"group\":\"g\",\"steps\":[{\"name\":\"a\"},{\"name\":\"c\"}]}", "step 'a' appears twice"},
                {"{\"group\":\"g\",\"parallel\":true,\"steps\":[{\"name\":\"b\"},{\"name\":\"c\"}]}", "unknown field 'parallel'"}}) {
            WorkflowDefinitionException e = assertThrows(WorkflowDefinitionException.class, () -> parser.parse(
                    "{\"workflows\":[{\"name\":\"w\",\"steps\":[{\"name\":\"a\"}," + bad[0] + "]}]}", "t"), bad[0]);
            assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
        }
    }

    /** The samples ./run loads (the launcher's resource) are valid definitions: a typo would stop the demo's deployment. */
    @Test
    void theSampleWorkflowsOfRunParse() throws IOException {
        String json = java.nio.file.Files.readString(java.nio.file.Path.of(
                "../launcher/src/main/resources/io/overseer/launcher/sample-workflows.json"));
        List<WorkflowDefinition> samples = parser.parse(json, "sample-workflows.json");
        assertEquals(List.of("fulfilment", "approval"), samples.stream().map(WorkflowDefinition::name).toList());
        assertEquals(List.of("arrange-shipping", "issue-invoice"), samples.get(0).stage("issue-invoice"));
    }
}
