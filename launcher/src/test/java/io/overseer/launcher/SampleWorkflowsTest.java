package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ./run loads the sample workflows unless the user names a workflows file or services of their own. */
class SampleWorkflowsTest {

    private static final Path DATA = Path.of("/tmp/overseer-data");

    @Test
    void theSamplesAreLoadedByDefaultFromTheDataDirectory() {
        assertEquals(DATA.resolve(Stack.SAMPLE_WORKFLOWS).toString(),
                Stack.samplesLinked(Map.of(), DATA).get(Stack.WORKFLOWS_FILE));
    }

    @Test
    void aUsersWorkflowsFileOrServicesKeepTheSamplesOut() {
        assertEquals("/etc/mine.json", Stack.samplesLinked(Map.of(Stack.WORKFLOWS_FILE, "/etc/mine.json"), DATA)
                .get(Stack.WORKFLOWS_FILE));
        assertFalse(Stack.samplesLinked(Map.of("overseer.agent.http-services", "payments"), DATA)
                .containsKey(Stack.WORKFLOWS_FILE));
    }

    @Test
    void theSampleFileHoldsAParallelGroupAndAnEventWait() throws IOException {
        try (InputStream in = Stack.class.getResourceAsStream(Stack.SAMPLE_WORKFLOWS)) {
            assertNotNull(in, "packaged with the launcher");
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(json.contains("\"group\": \"dispatch\"") && json.contains("\"event\": \"approval\""), json);
        }
    }
}
