package io.overseer.submission;

import io.overseer.messaging.Destinations;
import io.overseer.messaging.InboundMessages;
import io.overseer.messaging.UnprocessableMessageException;
import io.overseer.notification.ReplyTo;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import java.util.HexFormat;

/**
 * Reads a new order from an order-queue message, whatever protocol sent it: its body (as
 * {@link InboundMessages} reads any client message's), reply-to, correlation id and key. Anything
 * unreadable is refused as never processable.
 */
public final class OrderMessages {

    /** Far above the largest valid order (100 items); a bigger body is refused unread. A term of the order queue's contract. */
    public static final int MAX_BODY_BYTES = Destinations.MAX_ORDER_BODY_BYTES;
    static final int MAX_HEADER = 200;
    static final String DUPLICATE_KEY_PREFIX = "_AMQ_DUPL_ID:";
    static final String MESSAGE_ID_KEY_PREFIX = "JMSMessageID:";
    /** The message property in which Artemis keeps a STOMP frame's reply-to header. */
    private static final String STOMP_REPLY_TO = "JMSReplyTo";

    private OrderMessages() {
    }

    public static OrderMessage read(Message message) throws JMSException, InvalidOrderException {
        return new OrderMessage(body(message), replyTo(message), correlationId(message), key(message),
                InboundMessages.sender(message));
    }

    /**
     * The message's business key, else its duplicate id, else its message id: the broker drops most
     * repeats of a duplicate id itself, but not all of them when they race in on separate connections
     * (seen: 2 orders of 8 concurrent copies), so the database's key check serves as its backstop; and a
     * message redelivered after a crash between the order's commit and the acknowledgement keeps its
     * message id, so it never makes a second order. Prefixed so that neither ever matches a business key.
     */
    static String key(Message message) throws JMSException, InvalidOrderException {
        String key = bounded(message.getStringProperty(Destinations.IDEMPOTENCY_KEY), Destinations.IDEMPOTENCY_KEY);
        if (key != null) {
            return key;
        }
        Object duplicateId = message.getObjectProperty(Destinations.DUPLICATE_ID);
        String id = duplicateId instanceof byte[] bytes ? HexFormat.of().formatHex(bytes)
                : duplicateId == null ? null : duplicateId.toString();
        if (id != null) {
            return bounded(DUPLICATE_KEY_PREFIX + id, Destinations.DUPLICATE_ID);
        }
        String messageId = message.getJMSMessageID();
        return messageId == null ? null : bounded(MESSAGE_ID_KEY_PREFIX + messageId, "JMSMessageID");
    }

    static String body(Message message) throws JMSException, InvalidOrderException {
        try {
            return InboundMessages.text(message, "order");
        } catch (UnprocessableMessageException e) {
            throw new InvalidOrderException(e.getMessage());
        }
    }

    /**
     * The {@value Destinations#REPLY_TO} property if set (the contract for protocols without a reply-to
     * of their own), else JMSReplyTo. Whether it may be used is decided on submission.
     */
    static ReplyTo replyTo(Message message) throws JMSException, InvalidOrderException {
        String property = bounded(message.getStringProperty(Destinations.REPLY_TO), Destinations.REPLY_TO);
        if (property != null) {
            return ReplyTo.parse(property);
        }
        Destination destination = message.getJMSReplyTo();
        if (destination == null) {
            return null;
        }
        if (destination instanceof TemporaryQueue queue) {
            return new ReplyTo(queue.getQueueName(), ReplyTo.Kind.TEMPORARY_QUEUE);
        }
        if (destination instanceof TemporaryTopic topic) {
            return new ReplyTo(topic.getTopicName(), ReplyTo.Kind.TEMPORARY_TOPIC);
        }
        if (destination instanceof Queue queue) {
            return new ReplyTo(queue.getQueueName(), ReplyTo.Kind.QUEUE);
        }
        if (destination instanceof Topic topic) {
            return new ReplyTo(topic.getTopicName(), ReplyTo.Kind.TOPIC);
        }
        // STOMP's reply-to header: Artemis keeps it as the bare name it was given, neither queue nor topic.
        String name = message.getStringProperty(STOMP_REPLY_TO);
        if (name != null && !name.isBlank()) {
            return ReplyTo.parse(bounded(name, "reply-to"));
        }
        throw new InvalidOrderException("JMSReplyTo is neither a queue nor a topic; use the "
                + Destinations.REPLY_TO + " property");
    }

    static String correlationId(Message message) throws JMSException, InvalidOrderException {
        String correlationId = bounded(message.getJMSCorrelationID(), "JMSCorrelationID");
        return correlationId != null ? correlationId : message.getJMSMessageID();
    }

    private static String bounded(String value, String name) throws InvalidOrderException {
        if (value != null && (value.isBlank() || value.length() > MAX_HEADER)) {
            throw new InvalidOrderException(name + " must be 1-" + MAX_HEADER + " characters");
        }
        return value;
    }
}
