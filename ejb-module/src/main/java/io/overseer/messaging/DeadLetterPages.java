package io.overseer.messaging;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

/**
 * Reads the answer of QueueControl's {@code browse(page, pageSize)}: the broker encodes the page as
 * {@code {"javax.management.openmbean.CompositeData": ["<base64 of a serialized CompositeDataSupport>", …]}}
 * (Artemis's JsonUtil). Only JMX open types are let through deserialization (the filter below, as
 * Artemis's own reader does); anything else in the stream is refused.
 */
final class DeadLetterPages {

    static final String ORIGINAL_ADDRESS = "_AMQ_ORIG_ADDRESS";
    static final String ORIGINAL_QUEUE = "_AMQ_ORIG_QUEUE";
    private static final String PAGE_KEY = CompositeData.class.getName();
    private static final ObjectInputFilter OPEN_TYPES = ObjectInputFilter.Config.createFilter(
            "maxdepth=20;maxrefs=10000;maxbytes=1000000;javax.management.openmbean.*;java.lang.*;java.util.*;!*");
    private static final Map<Byte, String> TYPES = Map.of((byte) 0, "Message", (byte) 2, "ObjectMessage",
            (byte) 3, "TextMessage", (byte) 4, "BytesMessage", (byte) 5, "MapMessage", (byte) 6, "StreamMessage");

    private DeadLetterPages() {
    }

    static List<DeadLetter> read(JsonObject page) {
        List<DeadLetter> letters = new ArrayList<>();
        for (JsonValue each : page.getJsonArray(PAGE_KEY) == null ? List.<JsonValue>of() : page.getJsonArray(PAGE_KEY)) {
            letters.add(letter(decode(((JsonString) each).getString())));
        }
        return letters;
    }

    static DeadLetter letter(CompositeData message) {
        Map<String, Object> properties = properties(message);
        String originalQueue = text(properties.get(ORIGINAL_QUEUE));
        if (originalQueue == null) {
            originalQueue = text(properties.get(ORIGINAL_ADDRESS));
        }
        if (originalQueue == null) {
            originalQueue = text(properties.get(Destinations.DEAD_LETTER_ORIGIN));
        }
        long timestamp = item(message, "timestamp") instanceof Long millis ? millis : 0L;
        String body = item(message, "text") instanceof String text ? cut(text) : null;
        return new DeadLetter(Long.parseLong(String.valueOf(message.get("messageID"))), originalQueue,
                text(properties.get(Destinations.DEAD_LETTER_REASON)), text(properties.get(Destinations.ORDER_ID)),
                timestamp == 0 ? null : OffsetDateTime.ofInstant(Instant.ofEpochMilli(timestamp), ZoneOffset.UTC),
                item(message, "type") instanceof Byte type ? TYPES.getOrDefault(type, "Message") : null, body);
    }

    /** Every typed property table (StringProperties, LongProperties, …) merged into one map. */
    private static Map<String, Object> properties(CompositeData message) {
        Map<String, Object> properties = new HashMap<>();
        for (String key : message.getCompositeType().keySet()) {
            if (key.endsWith("Properties") && message.get(key) instanceof TabularData table) {
                for (Object row : table.values()) {
                    CompositeData entry = (CompositeData) row;
                    properties.put(String.valueOf(entry.get("key")), entry.get("value"));
                }
            }
        }
        return properties;
    }

    private static Object item(CompositeData message, String key) {
        return message.containsKey(key) ? message.get(key) : null;
    }

    private static String text(Object value) {
        return value == null || value.toString().isEmpty() ? null : value.toString();
    }

    private static String cut(String body) {
        return body.length() <= DeadLetter.MAX_BODY ? body : body.substring(0, DeadLetter.MAX_BODY);
    }

    private static CompositeData decode(String base64) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(Base64.getMimeDecoder().decode(base64)))) {
            in.setObjectInputFilter(OPEN_TYPES);
            return (CompositeData) in.readObject();
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new ManagementRequests.ManagementException("unreadable message in the broker's DLQ page", e);
        }
    }
}
