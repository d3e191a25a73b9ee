package io.overseer.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.notification.ReplyTo;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How an order-queue message of each protocol's shape is read; messages are stand-ins answering the JMS calls used. */
class OrderMessagesTest {

    private static final String ORDER = "{\"customerId\":\"c-1\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]}";

    @Test
    void aTextMessageWithJmsReplyToAndCorrelationId() throws Exception {
        TemporaryQueue temporary = stub(TemporaryQueue.class, Map.of("getQueueName", "5c1b0d5e"));
        Map<String, Object> answers = new HashMap<>(Map.of("getText", ORDER, "getJMSReplyTo", temporary,
                "getJMSCorrelationID", "erp-1", "getJMSMessageID", "ID:1"));
        OrderMessage read = OrderMessages.read(stub(TextMessage.class, answers));

        assertEquals(ORDER, read.json());
        assertEquals(new ReplyTo("5c1b0d5e", ReplyTo.Kind.TEMPORARY_QUEUE), read.replyTo());
        assertEquals("erp-1", read.correlationId());
    }

    @Test
    void utf8BytesAsStompAndAmqpDataSectionsSendThemAndTheStompReplyToHeader() throws Exception {
        byte[] body = ORDER.replace("c-1", "c-ü").getBytes(StandardCharsets.UTF_8);
        Destination plain = stub(Destination.class, Map.of());
        OrderMessage read = OrderMessages.read(bytes(body, Map.of("getJMSReplyTo", plain,
                "getStringProperty:JMSReplyTo", "overseer.reply.erp", "getJMSMessageID", "ID:2")));

        assertTrue(read.json().contains("c-ü"));
        assertEquals(new ReplyTo("overseer.reply.erp", ReplyTo.Kind.QUEUE), read.replyTo());
        assertEquals("ID:2", read.correlationId(), "no correlation id: the message id");
    }

    @Test
    void bytesThatAreNotUtf8AndOtherBodiesAreRefused() {
        InvalidOrderException notUtf8 = assertThrows(InvalidOrderException.class,
                () -> OrderMessages.read(bytes(new byte[] {(byte) 0xC3, (byte) 0x28}, Map.of())));
        assertEquals("order body is not UTF-8 text", notUtf8.getMessage());
        assertThrows(InvalidOrderException.class, () -> OrderMessages.read(stub(MapMessage.class, Map.of())));
        assertThrows(InvalidOrderException.class, () -> OrderMessages.read(
                bytes(new byte[OrderMessages.MAX_BODY_BYTES + 1], Map.of())));
    }

    @Test
    void theBusinessKeyElseTheDuplicateIdElseNone() throws Exception {
        assertEquals("k-1", OrderMessages.key(stub(TextMessage.class, Map.of("getStringProperty:idempotencyKey", "k-1",
                "getObjectProperty:_AMQ_DUPL_ID", "d-1"))));
        assertEquals("_AMQ_DUPL_ID:d-1", OrderMessages.key(stub(TextMessage.class, Map.of("getObjectProperty:_AMQ_DUPL_ID", "d-1"))));
        assertEquals("_AMQ_DUPL_ID:0aff", OrderMessages.key(stub(TextMessage.class,
                Map.of("getObjectProperty:_AMQ_DUPL_ID", new byte[] {0x0a, (byte) 0xff}))));
        assertEquals("JMSMessageID:ID:7", OrderMessages.key(stub(TextMessage.class, Map.of("getJMSMessageID", "ID:7"))),
                "neither: the message id, which a redelivery keeps");
        assertNull(OrderMessages.key(stub(TextMessage.class, Map.of())));
        assertThrows(InvalidOrderException.class, () -> OrderMessages.key(stub(TextMessage.class,
                Map.of("getStringProperty:idempotencyKey", "x".repeat(201)))));
    }

    private static BytesMessage bytes(byte[] body, Map<String, Object> answers) {
        Map<String, Object> all = new HashMap<>(answers);
        all.put("getBodyLength", (long) body.length);
        all.put("readBytes", body);
        return stub(BytesMessage.class, all);
    }

    /**
     * A stand-in answering each method by name (or "name:firstArgument"); readBytes copies its answer
     * into the array it is given. Anything else answers null (or 0).
     */
    @SuppressWarnings("unchecked")
    private static <T> T stub(Class<T> type, Map<String, Object> answers) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type, Message.class}, (proxy, method, args) -> {
            String name = method.getName();
            if (name.equals("readBytes")) {
                byte[] source = (byte[]) answers.get("readBytes");
                System.arraycopy(source, 0, (byte[]) args[0], 0, source.length);
                return source.length;
            }
            Object answer = args != null && args.length == 1 && answers.containsKey(name + ":" + args[0])
                    ? answers.get(name + ":" + args[0]) : answers.get(name);
            if (answer == null && method.getReturnType() == long.class) {
                return 0L;
            }
            if (answer == null && method.getReturnType() == int.class) {
                return 0;
            }
            if (answer == null && method.getReturnType() == boolean.class) {
                return false;
            }
            return answer;
        });
    }
}
