package io.overseer.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import javax.management.openmbean.TabularDataSupport;
import javax.management.openmbean.TabularType;
import org.junit.jupiter.api.Test;

/** A page of QueueControl.browse as the broker encodes it (Artemis's JsonUtil and MessageOpenTypeFactory). */
class DeadLetterPagesTest {

    @Test
    void aMessageTheApplicationDeadLetteredShowsItsReasonOriginAndBody() throws Exception {
        CompositeData message = message(42, 1_795_000_000_000L, (byte) 3, "x".repeat(2500), Map.of(
                "dlqReason", "malformed order JSON", "dlqOriginalDestination", "orders", "orderId", "o-1",
                "_AMQ_ORIG_ADDRESS", "orders", "_AMQ_ORIG_QUEUE", "orders"));

        List<DeadLetter> letters = DeadLetterPages.read(page(message));

        DeadLetter letter = letters.get(0);
        assertEquals(42, letter.messageId());
        assertEquals("orders", letter.originalQueue());
        assertEquals("malformed order JSON", letter.reason());
        assertEquals("o-1", letter.orderId());
        assertEquals(OffsetDateTime.parse("2026-11-18T11:06:40Z"), letter.timestamp());
        assertEquals("TextMessage", letter.type());
        assertEquals(DeadLetter.MAX_BODY, letter.body().length());
    }

    @Test
    void aMessageTheBrokerDeadLetteredHasNoReasonButItsOriginalQueue() throws Exception {
        CompositeData message = message(7, 0, (byte) 4, null, Map.of("_AMQ_ORIG_ADDRESS", "overseer.reply.a",
                "_AMQ_ORIG_QUEUE", "overseer.reply.a"));

        DeadLetter letter = DeadLetterPages.read(page(message)).get(0);

        assertEquals("overseer.reply.a", letter.originalQueue());
        assertNull(letter.reason());
        assertNull(letter.orderId());
        assertNull(letter.timestamp());
        assertEquals("BytesMessage", letter.type());
        assertNull(letter.body());
    }

    @Test
    void anythingButOpenTypesIsRefused() throws Exception {
        JsonObject page = Json.createObjectBuilder().add(CompositeData.class.getName(),
                Json.createArrayBuilder().add(base64(new java.io.File("/etc/passwd")))).build();

        assertThrows(ManagementRequests.ManagementException.class, () -> DeadLetterPages.read(page));
    }

    @Test
    void anEmptyPageIsNoLetters() {
        assertEquals(List.of(), DeadLetterPages.read(Json.createObjectBuilder().add(CompositeData.class.getName(),
                Json.createArrayBuilder()).build()));
    }

    private static JsonObject page(CompositeData... messages) throws IOException {
        var array = Json.createArrayBuilder();
        for (CompositeData message : messages) {
            array.add(base64((CompositeDataSupport) message));
        }
        return Json.createObjectBuilder().add(CompositeData.class.getName(), array).build();
    }

    private static String base64(Serializable object) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    private static CompositeData message(long id, long timestamp, byte type, String text, Map<String, String> properties)
            throws Exception {
        String rowName = "java.util.Map<java.lang.String, java.lang.String>";
        CompositeType row = new CompositeType(rowName, rowName, new String[] {"key", "value"},
                new String[] {"key", "value"}, new OpenType<?>[] {SimpleType.STRING, SimpleType.STRING});
        TabularDataSupport strings = new TabularDataSupport(new TabularType(rowName, rowName, row, new String[] {"key"}));
        for (var entry : properties.entrySet()) {
            strings.put(new CompositeDataSupport(row, new String[] {"key", "value"},
                    new Object[] {entry.getKey(), entry.getValue()}));
        }
        Map<String, Object> items = new HashMap<>();
        items.put("messageID", String.valueOf(id));
        items.put("timestamp", timestamp);
        items.put("type", type);
        items.put("StringProperties", strings);
        List<String> names = new java.util.ArrayList<>(List.of("messageID", "timestamp", "type", "StringProperties"));
        List<OpenType<?>> types = new java.util.ArrayList<>(List.of(SimpleType.STRING, SimpleType.LONG, SimpleType.BYTE,
                strings.getTabularType()));
        if (text != null) {
            items.put("text", text);
            names.add("text");
            types.add(SimpleType.STRING);
        }
        CompositeType composite = new CompositeType("message", "message", names.toArray(String[]::new),
                names.toArray(String[]::new), types.toArray(OpenType<?>[]::new));
        return new CompositeDataSupport(composite, items);
    }
}
