package io.overseer.submission;

import io.overseer.messaging.Destinations;
import io.overseer.messaging.OrderQueueMessage;
import io.overseer.notification.ReplyTo;
import io.overseer.platform.Utf8;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.nio.charset.CharacterCodingException;
import java.util.HexFormat;

/**
 * Reads an order from an order-queue message, whatever protocol sent it. How the JSON arrives differs:
 * Core, OpenWire and AMQP JMS clients send a TextMessage; STOMP frames with a content-length header, and
 * AMQP messages with a binary data section, arrive as a BytesMessage — accepted if they are UTF-8.
 * Anything else is refused as never processable.
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
        return new OrderMessage(body(message), replyTo(message), correlationId(message), key(message), sender(message));
    }

    /** An external event for an order, as it arrived on the order queue (see {@link OrderQueueMessage#EVENT}). */
    public record EventMessage(String orderId, String event, String payload, String sender) {
    }

    /** The largest event body, as over HTTP (overseer.api.max-body-bytes' default). */
    static final int MAX_EVENT_BYTES = 64 * 1024;
    private static final java.util.regex.Pattern EVENT_NAME = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    /**
     * Reads an event message: the order in the {@code orderId} property, the event's name in
     * {@code eventName}, and a JSON object body (an empty body is the empty object), kept compact.
     *
     * @throws InvalidOrderException what is missing or malformed, for the dead-letter reason
     */
    public static EventMessage readEvent(Message message) throws JMSException, InvalidOrderException {
        String orderId = message.getStringProperty(Destinations.ORDER_ID);
        String event = message.getStringProperty(Destinations.EVENT_NAME);
        if (orderId == null || orderId.isBlank() || orderId.length() > 36) {
            throw new InvalidOrderException("an event message needs the order's id (1-36 characters) in property "
                    + Destinations.ORDER_ID);
        }
        if (event == null || !EVENT_NAME.matcher(event).matches()) {
            throw new InvalidOrderException("an event message needs the event's name ([a-z0-9-], at most 64) in property "
                    + Destinations.EVENT_NAME);
        }
        String text = message instanceof TextMessage || message instanceof BytesMessage ? body(message) : "";
        if (text.length() > MAX_EVENT_BYTES) {
            throw new InvalidOrderException("event body larger than " + MAX_EVENT_BYTES + " characters");
        }
        String payload;
        try (var reader = jakarta.json.Json.createReader(new java.io.StringReader(text.isBlank() ? "{}" : text))) {
            payload = reader.readObject().toString();
        } catch (jakarta.json.JsonException | IllegalStateException e) {
            throw new InvalidOrderException("event body is not a JSON object: " + e.getMessage());
        }
        return new EventMessage(orderId, event, payload, sender(message));
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
        if (message instanceof TextMessage text && text.getText() != null) {
            if (text.getText().length() > MAX_BODY_BYTES) {
                throw new InvalidOrderException("order body larger than " + MAX_BODY_BYTES + " characters");
            }
            return text.getText();
        }
        if (message instanceof BytesMessage bytes) {
            return utf8(bytes);
        }
        throw new InvalidOrderException("an order must be JSON in a text message (or UTF-8 in a bytes message)");
    }

    private static String utf8(BytesMessage message) throws JMSException, InvalidOrderException {
        long length = message.getBodyLength();
        if (length > MAX_BODY_BYTES) {
            throw new InvalidOrderException("order body larger than " + MAX_BODY_BYTES + " bytes");
        }
        byte[] bytes = new byte[(int) length];
        message.readBytes(bytes);
        try {
            return Utf8.decode(bytes);
        } catch (CharacterCodingException e) {
            throw new InvalidOrderException("order body is not UTF-8 text");
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

    private static String sender(Message message) throws JMSException {
        String user = message.getStringProperty(Destinations.VALIDATED_USER);
        return user != null ? user : message.getStringProperty("JMSXUserID");
    }

    private static String bounded(String value, String name) throws InvalidOrderException {
        if (value != null && (value.isBlank() || value.length() > MAX_HEADER)) {
            throw new InvalidOrderException(name + " must be 1-" + MAX_HEADER + " characters");
        }
        return value;
    }
}
