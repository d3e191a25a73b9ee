package io.overseer.it;

import io.overseer.support.TestStack;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.TextMessage;
import java.util.Collections;

/** Reads the DLQ as the broker's operator, picking messages by a marker property the test set. */
final class DeadLetterQueue {

    private DeadLetterQueue() {
    }

    /**
     * Puts a valid order for {@code customer} in the DLQ, as the broker marks what it dead-letters from the
     * order queue (original address and queue) with the application's {@code reason}: the tests' stand-in
     * for an order dead-lettered while something it needed was down, which a redrive makes an order.
     */
    static void putOrder(String customer, String reason) throws jakarta.jms.JMSException {
        try (var factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext()) {
            TextMessage message = jms.createTextMessage(io.overseer.support.OrdersApi.order(customer, "A-1", 1));
            message.setStringProperty("_AMQ_ORIG_ADDRESS", "orders");
            message.setStringProperty("_AMQ_ORIG_QUEUE", "orders");
            message.setStringProperty("dlqReason", reason);
            message.setStringProperty("dlqOriginalDestination", "orders");
            jms.createProducer().send(jms.createQueue("DLQ"), message);
        }
    }

    static TextMessage await(String marker) {
        Message message = awaitAny(marker);
        if (!(message instanceof TextMessage text)) {
            throw new AssertionError("expected a text message in the DLQ, got " + message);
        }
        return text;
    }

    /** How many messages in the DLQ now name the order (in their body or their orderId property). */
    static int countFor(String orderId) {
        try (var factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext();
             QueueBrowser browser = jms.createBrowser(jms.createQueue("DLQ"))) {
            int count = 0;
            for (Object each : Collections.list(browser.getEnumeration())) {
                Message message = (Message) each;
                String body = message instanceof TextMessage text ? text.getText() : "";
                if (orderId.equals(message.getStringProperty("orderId")) || (body != null && body.contains(orderId))) {
                    count++;
                }
            }
            return count;
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    static Message awaitAny(String marker) {
        try (var factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext();
             JMSConsumer consumer = jms.createConsumer(jms.createQueue("DLQ"), "marker = '" + marker + "'")) {
            Message message = consumer.receive(30_000);
            if (message == null) {
                throw new AssertionError("nothing marked " + marker + " reached the DLQ");
            }
            return message;
        }
    }
}
