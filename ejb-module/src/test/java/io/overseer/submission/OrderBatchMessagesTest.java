package io.overseer.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reading a message of many orders: told from a single order by its {@code orders} member; each order
 * with its own key, else the message's key and its place; an unreadable order refused alone; a wrong
 * envelope refused whole.
 */
class OrderBatchMessagesTest {

    private static final String ORDER = "{\"customerId\":\"c-1\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]}";

    @Test
    void aBatchIsTheBodyWithAnOrdersMemberAndNothingElseIs() {
        assertTrue(OrderBatchMessages.isBatch("{\"orders\":[" + ORDER + "]}"));
        assertFalse(OrderBatchMessages.isBatch(ORDER));
        assertFalse(OrderBatchMessages.isBatch("{\"customerId\":\"orders\",\"items\":[]}"), "a value named orders");
        assertFalse(OrderBatchMessages.isBatch("{\"orders\":"), "malformed: the single path refuses it with its reason");
        assertFalse(OrderBatchMessages.isBatch(null));
    }

    @Test
    void eachOrderHasItsOwnKeyElseTheMessagesKeyAndItsPlace() throws Exception {
        String keyed = ORDER.replace("{\"customerId\"", "{\"idempotencyKey\":\"sale-7\",\"customerId\"");
        OrderBatchMessages.Batch batch = OrderBatchMessages.read(message("{\"orders\":[" + ORDER + "," + keyed + "]}",
                "corr-1", "JMSMessageID:ID:42"));

        assertEquals(List.of(), batch.unreadable());
        BatchOrder first = batch.orders().get(0);
        assertEquals("JMSMessageID:ID:42#0", first.idempotencyKey());
        assertEquals("corr-1#0", first.correlationId());
        assertEquals("c-1", first.request().customerId());
        BatchOrder second = batch.orders().get(1);
        assertEquals(1, second.index());
        assertEquals("sale-7", second.idempotencyKey());
        assertEquals("sale-7", second.correlationId());
        assertEquals(SubmissionKey.fingerprint(first.request()), SubmissionKey.fingerprint(second.request()),
                "the key is not part of the order");
        assertEquals(keyed, batch.json().get(1).replace(" ", ""));
    }

    @Test
    void anUnreadableOrderIsRefusedAloneWithItsJson() throws Exception {
        OrderBatchMessages.Batch batch = OrderBatchMessages.read(message("{\"orders\":[" + ORDER
                + ",42,{\"customerId\":\"c\",\"items\":\"many\"},{\"idempotencyKey\":7}]}", null, null));

        assertEquals(1, batch.orders().size());
        assertEquals(List.of(1, 2, 3), batch.unreadable().stream().map(BatchResult::index).toList());
        assertEquals("an order of a batch must be a JSON object", batch.unreadable().get(0).refusal().reason());
        assertTrue(batch.unreadable().get(1).refusal().reason().startsWith("malformed order JSON"),
                batch.unreadable().get(1).toString());
        assertEquals("idempotencyKey must be a string", batch.unreadable().get(2).refusal().reason());
        assertEquals("42", batch.json().get(1));
        assertEquals(null, batch.orders().get(0).idempotencyKey(), "no key of the message's: none of its own");
    }

    @Test
    void aWrongEnvelopeIsRefusedWhole() {
        for (String body : List.of("{\"orders\":[]}", "{\"orders\":{}}", "{\"orders\":[" + ORDER + "],\"replyTo\":\"x\"}",
                "{\"orders\":[" + ORDER + "]")) {
            assertThrows(InvalidOrderException.class, () -> OrderBatchMessages.read(message(body, null, null)), body);
        }
    }

    private static OrderMessage message(String json, String correlationId, String key) {
        return new OrderMessage(json, null, correlationId, key, "legacy");
    }
}
