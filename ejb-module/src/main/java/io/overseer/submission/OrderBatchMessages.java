package io.overseer.submission;

import io.overseer.platform.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.bind.JsonbException;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a message of the order queue that carries many orders: {@code {"orders":[order, …]}}, each
 * order the body a single-order message carries, plus, if its sender wants one, its own
 * {@code idempotencyKey}. An order without one is keyed by the message's key (its idempotencyKey
 * property, else its duplicate id, else its message id) and its place, {@code <key>#<index>}, so that a
 * message delivered again after a crash makes no second order of any of its orders; its notifications
 * carry its own key, else the message's correlation id (or message id) and its place, the same way.
 *
 * <p>An order that cannot be read (not an object, not an order's JSON, a key that is no string) is
 * refused alone, as one that fails validation is; a body whose envelope is wrong (anything but one
 * {@code orders} array of at least one order) is refused whole.
 */
final class OrderBatchMessages {

    static final String ORDERS = "orders";
    static final String KEY = "idempotencyKey";
    /** Looked up once: a lookup searches the class path each time. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private OrderBatchMessages() {
    }

    /**
     * The orders of a batch message and, by place, each one's JSON (what a refused one is dead-lettered
     * with) and the refusals of those that could not be read.
     */
    record Batch(List<BatchOrder> orders, List<String> json, List<BatchResult> unreadable) {
    }

    /** Whether the body is a batch of orders: a JSON object with an {@value #ORDERS} member (an order has none). */
    static boolean isBatch(String body) {
        if (body == null || !body.contains("\"" + ORDERS + "\"")) {
            return false; // the common case, a single order, without parsing twice
        }
        try (var reader = JSON.createReader(new StringReader(body))) {
            return reader.readValue() instanceof JsonObject object && object.containsKey(ORDERS);
        } catch (JsonException e) {
            return false; // the single-order path refuses it, with its reason
        }
    }

    static Batch read(OrderMessage message) throws InvalidOrderException {
        JsonObject body;
        try (var reader = JSON.createReader(new StringReader(message.json()))) {
            body = reader.readObject();
        } catch (JsonException e) {
            throw new InvalidOrderException("malformed batch JSON: " + e.getMessage());
        }
        if (body.size() != 1 || !(body.get(ORDERS) instanceof JsonArray orders)) {
            throw new InvalidOrderException("a batch body is {\"orders\":[order, …]} and nothing else");
        }
        if (orders.isEmpty()) {
            throw new InvalidOrderException("a batch holds at least one order");
        }
        List<BatchOrder> read = new ArrayList<>(orders.size());
        List<String> json = new ArrayList<>(orders.size());
        List<BatchResult> unreadable = new ArrayList<>();
        for (int index = 0; index < orders.size(); index++) {
            JsonValue item = orders.get(index);
            json.add(item.toString());
            try {
                read.add(order(index, item, message));
            } catch (InvalidOrderException e) {
                unreadable.add(BatchResult.refused(index, BatchResult.Refusal.invalid(e.getMessage())));
            }
        }
        return new Batch(read, json, unreadable);
    }

    private static BatchOrder order(int index, JsonValue item, OrderMessage message) throws InvalidOrderException {
        if (!(item instanceof JsonObject object)) {
            throw new InvalidOrderException("an order of a batch must be a JSON object");
        }
        JsonValue key = object.get(KEY);
        if (key != null && !(key instanceof JsonString)) {
            throw new InvalidOrderException(KEY + " must be a string");
        }
        OrderRequest request;
        try {
            request = Json.read(JSON.createObjectBuilder(object).remove(KEY).build().toString(), OrderRequest.class);
        } catch (JsonbException e) {
            throw new InvalidOrderException("malformed order JSON: " + e.getMessage());
        }
        String own = key == null ? null : ((JsonString) key).getString();
        String idempotencyKey = own != null ? own : placed(message.idempotencyKey(), index);
        String correlationId = own != null ? own : placed(message.correlationId(), index);
        return new BatchOrder(index, request, idempotencyKey, correlationId);
    }

    private static String placed(String messageWide, int index) {
        return messageWide == null ? null : messageWide + "#" + index;
    }
}
