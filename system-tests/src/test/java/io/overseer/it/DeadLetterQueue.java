package io.overseer.it;

import io.overseer.support.TestStack;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;

/** Reads the DLQ as the broker's operator, picking messages by a marker property the test set. */
final class DeadLetterQueue {

    private DeadLetterQueue() {
    }

    static TextMessage await(String marker) {
        Message message = awaitAny(marker);
        if (!(message instanceof TextMessage text)) {
            throw new AssertionError("expected a text message in the DLQ, got " + message);
        }
        return text;
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
