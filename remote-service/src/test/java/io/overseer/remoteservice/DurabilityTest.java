package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;

class DurabilityTest extends SimulatorTestSupport {

    @Test
    void restartKeepsTheLedgerAndReplaysStillGetTheFirstAnswer() throws Exception {
        HttpResponse<String> first = client.apply("charge-payment", "key-1", "order-1");
        client.apply("charge-payment", "key-2", "order-1");

        restart();

        HttpResponse<String> replay = client.apply("charge-payment", "key-1", "order-1");
        assertEquals(first.body(), replay.body());
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElse(null));
        JsonNode stats = client.stats();
        assertEquals(2, stats.get("applied").asLong());
        assertEquals(1, stats.get("appliedTwice").asLong());
    }

    @Test
    void effectsAppliedAfterRestartFollowTheEarlierOnes() throws Exception {
        client.apply("charge-payment", "key-1", "order-1");
        client.apply("charge-payment", "key-2", "order-2");
        restart();
        client.apply("charge-payment", "key-3", "order-3");

        JsonNode effects = SimulatorClient.json(client.request("GET", "/effects"));
        assertEquals(3, effects.size());
        assertEquals("key-1", effects.get(0).get("idempotencyKey").asText());
        assertEquals("key-3", effects.get(2).get("idempotencyKey").asText());
    }

    @Test
    void tornLastLineIsDroppedAndTheJournalStaysUsable() throws Exception {
        client.apply("charge-payment", "key-1", "order-1");
        simulator.close();
        long intact = Files.size(journal());
        Files.writeString(journal(), "{\"effectId\":\"abc\",\"orderId\":\"ord", StandardOpenOption.APPEND);

        restart();

        assertEquals(intact, Files.size(journal()));
        assertEquals(1, client.stats().get("applied").asLong());
        client.apply("charge-payment", "key-2", "order-2");
        restart();
        assertEquals(2, client.stats().get("applied").asLong());
        List<String> lines = Files.readAllLines(journal(), StandardCharsets.UTF_8);
        assertEquals(2, lines.size());
        assertTrue(lines.get(1).contains("\"key-2\""));
    }

    @Test
    void unreadableLineBeforeTheEndRefusesToStart() throws Exception {
        client.apply("charge-payment", "key-1", "order-1");
        simulator.close();
        simulator = null;
        String good = Files.readString(journal());
        Files.writeString(journal(), "not json at all\n" + good);

        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> RemoteServiceSimulator.start("127.0.0.1", 0, dataDir));
        assertTrue(failure.getMessage().contains("line 1"), failure.getMessage());
        // The damaged journal is left exactly as found, for a human to inspect.
        assertEquals("not json at all\n" + good, Files.readString(journal()));
    }
}
