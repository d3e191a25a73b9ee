package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.overseer.platform.Json;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Requests and replies as they travel in message bodies: read back whole, with or without their trace. */
class AgentMessagesJsonTest {

    private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aRequestAndAReplyReadBackAsTheyWereWritten() {
        AgentRequest request = new AgentRequest("o-1", 3, 1, "t0ken", "charge-payment", "o-1:charge-payment",
                OffsetDateTime.of(2026, 11, 28, 12, 0, 0, 0, ZoneOffset.UTC), "c-1", List.of(new AgentRequest.Line("A-1", 2)),
                Duration.ofSeconds(5), Map.of("approval", "{\"ok\":true}"), TRACE);
        String batch = "{\"batch\":[" + Json.write(request) + "]}";
        assertEquals(List.of(request), Json.readBatch(batch, AgentRequest.class));
        AgentReply reply = AgentReply.succeeded(request, "applied").tracedBy(TRACE);
        assertEquals(List.of(reply), Json.readBatch("{\"batch\":[" + Json.write(reply) + "]}", AgentReply.class));
    }

    @Test
    void aMessageFromBeforeTracingReadsWithoutATrace() {
        String old = "{\"orderId\":\"o-1\",\"epoch\":3,\"stepSeq\":1,\"token\":\"t\",\"operation\":\"op\","
                + "\"outcome\":\"SUCCEEDED\",\"detail\":\"d\"}";
        AgentReply reply = Json.readBatch("{\"batch\":[" + old + "]}", AgentReply.class).get(0);
        assertEquals("o-1", reply.orderId());
        assertNull(reply.trace());
    }
}
