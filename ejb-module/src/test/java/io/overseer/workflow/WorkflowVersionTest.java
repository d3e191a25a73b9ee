package io.overseer.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A definition's version is its content: the same definition however it was written (spacing, field
 * order, defaults left out or written) has one version, any change an order could notice has another,
 * and the stored canonical form reads back as the very same definition.
 */
class WorkflowVersionTest {

    private final WorkflowParser parser = new WorkflowParser(Duration.ofSeconds(30), 3);

    private WorkflowDefinition one(String steps) {
        return parser.parse("{\"workflows\":[{\"name\":\"w\",\"steps\":[" + steps + "]}]}", "test").get(0);
    }

    @Test
    void theSameDefinitionHowEverWrittenHasOneVersion() {
        WorkflowDefinition terse = one("{\"name\":\"a\",\"compensation\":\"undo-a\"},{\"name\":\"b\"}");
        WorkflowDefinition spelledOut = one("""
                {"onExhausted":"compensate", "maxRetries":3, "completeBy":"PT30S", "compensation":"undo-a",
                 "operation":"a", "name":"a"},
                {"name":"b", "compensation":"none", "completeBy":"PT30S"}""");
        assertEquals(terse, spelledOut);
        assertEquals(12, terse.version().length());
        assertTrue(terse.version().matches("[0-9a-f]{12}"), terse.version());
        assertEquals("w@" + terse.version(), terse.label());
    }

    @Test
    void everyChangeAnOrderCouldNoticeIsAnotherVersion() {
        Set<String> versions = new HashSet<>();
        for (String steps : List.of(
                "{\"name\":\"a\",\"compensation\":\"undo-a\"},{\"name\":\"b\"}",
                "{\"name\":\"b\"},{\"name\":\"a\",\"compensation\":\"undo-a\"}",                    // reordered
                "{\"name\":\"a\",\"compensation\":\"undo-a\"},{\"name\":\"b\"},{\"name\":\"c\"}",    // added
                "{\"name\":\"a\",\"compensation\":\"undo-a\"}",                                      // removed
                "{\"name\":\"a2\",\"operation\":\"a\",\"compensation\":\"undo-a\"},{\"name\":\"b\"}", // renamed
                "{\"name\":\"a\",\"compensation\":\"void-a\"},{\"name\":\"b\"}",                     // another undo
                "{\"name\":\"a\",\"compensation\":\"undo-a\",\"completeBy\":\"PT31S\"},{\"name\":\"b\"}",
                "{\"name\":\"a\",\"compensation\":\"undo-a\",\"maxRetries\":4},{\"name\":\"b\"}",
                "{\"name\":\"a\",\"compensation\":\"undo-a\",\"backoff\":{\"initial\":\"PT1S\"}},{\"name\":\"b\"}",
                "{\"name\":\"a\",\"compensation\":\"undo-a\",\"onExhausted\":\"error\"},{\"name\":\"b\"}")) {
            versions.add(one(steps).version());
        }
        assertEquals(10, versions.size(), "ten definitions, ten versions: " + versions);
    }

    @Test
    void theCanonicalFormReadsBackAsTheSameDefinitionWhateverTheReadersDefaults() {
        WorkflowDefinition original = one("""
                {"name":"a","compensation":"undo-a","backoff":{"initial":"PT2S"}},
                {"name":"b","completeBy":"PT5M","maxRetries":0,"onExhausted":"error"}""");
        WorkflowDefinition stored = new WorkflowParser(Duration.ofHours(1), 9).parseOne(original.canonicalJson(), "stored");
        assertEquals(original, stored);
        assertEquals(original.version(), stored.version());
    }

    @Test
    void defaultsAreWrittenIntoTheVersionSoAChangedDefaultIsANewVersion() {
        WorkflowDefinition before = one("{\"name\":\"a\"}");
        WorkflowDefinition after = new WorkflowParser(Duration.ofSeconds(45), 3)
                .parse("{\"workflows\":[{\"name\":\"w\",\"steps\":[{\"name\":\"a\"}]}]}", "test").get(0);
        assertNotEquals(before.version(), after.version());
    }
}
