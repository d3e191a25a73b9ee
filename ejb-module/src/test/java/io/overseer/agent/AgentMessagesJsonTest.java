package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.Json;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Requests and replies as they travel in message bodies: read back whole, with or without their trace. */
class AgentMessagesJsonTest {

    private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aRequestAndAReplyReadBackAsTheyWereWritten() {
        AttemptRequest request = new AttemptRequest("o-1", 3, 1, "t0ken", "charge-payment", "o-1:charge-payment",
                OffsetDateTime.of(2026, 11, 28, 12, 0, 0, 0, ZoneOffset.UTC), "c-1", List.of(new AttemptRequest.Line("A-1", 2)),
                Duration.ofSeconds(5), Map.of("approval", "{\"ok\":true}"), TRACE);
        String batch = "{\"batch\":[" + Json.write(request) + "]}";
        assertEquals(List.of(request), Json.readBatch(batch, AttemptRequest.class));
        AgentReply reply = AgentReply.succeeded(request, "applied").tracedBy(TRACE);
        assertEquals(List.of(reply), Json.readBatch("{\"batch\":[" + Json.write(reply) + "]}", AgentReply.class));
    }

    /**
     * The public agent API's {@code heartbeat()} is an Optional; the wire keeps the field's old name and form, so
     * that a request written before the API was split out reads with its heartbeat, and one written now reads
     * on an instance not yet upgraded.
     */
    @Test
    void theHeartbeatTravelsUnderItsOldName() {
        AttemptRequest request = new AttemptRequest("o-1", 3, 1, "t", "audit-stock", "o-1:audit-stock",
                OffsetDateTime.of(2026, 11, 28, 12, 0, 0, 0, ZoneOffset.UTC), "c-1", List.of(), Duration.ofSeconds(3),
                Map.of(), null);
        String json = Json.write(request);
        assertTrue(json.contains("\"heartbeat\":\"PT3S\""), json);
        assertFalse(json.contains("heartbeatInterval"), json);
        String old = "{\"orderId\":\"o-1\",\"epoch\":3,\"stepSeq\":1,\"token\":\"t\",\"operation\":\"audit-stock\","
                + "\"idempotencyKey\":\"o-1:audit-stock\",\"completeBy\":\"2026-11-28T12:00:00Z\",\"customerId\":\"c-1\","
                + "\"lines\":[],\"heartbeat\":\"PT3S\",\"events\":{}}";
        AttemptRequest read = Json.readBatch("{\"batch\":[" + old + "]}", AttemptRequest.class).get(0);
        assertEquals(Optional.of(Duration.ofSeconds(3)), read.heartbeat());
        assertEquals(Optional.empty(), new AttemptRequest("o-1", 3, 1, "t", "op", "k", read.completeBy(), "c-1", List.of(),
                null, Map.of(), null).heartbeat());
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
