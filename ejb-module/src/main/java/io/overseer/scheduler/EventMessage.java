package io.overseer.scheduler;

import io.overseer.messaging.Destinations;
import io.overseer.messaging.InboundMessages;
import io.overseer.messaging.OrderQueueMessage;
import io.overseer.messaging.UnprocessableMessageException;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.util.regex.Pattern;

/**
 * An external event for an order, as it arrived on the order queue (see {@link OrderQueueMessage#EVENT}):
 * read here, by its consumer, as new orders are read by theirs ({@code io.overseer.submission.OrderMessages}).
 */
record EventMessage(String orderId, String event, String payload, String sender) {

    /** The largest event body, as over HTTP (overseer.api.max-body-bytes' default). */
    static final int MAX_EVENT_BYTES = 64 * 1024;
    private static final Pattern EVENT_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    /**
     * Reads an event message: the order in the {@code orderId} property, the event's name in
     * {@code eventName}, and a JSON object body (an empty body is the empty object), kept compact.
     *
     * @throws UnprocessableMessageException what is missing or malformed, for the dead-letter reason
     */
    static EventMessage read(Message message) throws JMSException, UnprocessableMessageException {
        String orderId = message.getStringProperty(Destinations.ORDER_ID);
        String event = message.getStringProperty(Destinations.EVENT_NAME);
        if (orderId == null || orderId.isBlank() || orderId.length() > 36) {
            throw new UnprocessableMessageException("an event message needs the order's id (1-36 characters) in property "
                    + Destinations.ORDER_ID);
        }
        if (event == null || !EVENT_NAME.matcher(event).matches()) {
            throw new UnprocessableMessageException("an event message needs the event's name ([a-z0-9-], at most 64)"
                    + " in property " + Destinations.EVENT_NAME);
        }
        String text = message instanceof TextMessage || message instanceof BytesMessage
                ? InboundMessages.text(message, "event") : "";
        if (text.length() > MAX_EVENT_BYTES) {
            throw new UnprocessableMessageException("event body larger than " + MAX_EVENT_BYTES + " characters");
        }
        String payload;
        try (var reader = jakarta.json.Json.createReader(new java.io.StringReader(text.isBlank() ? "{}" : text))) {
            payload = reader.readObject().toString();
        } catch (jakarta.json.JsonException | IllegalStateException e) {
            throw new UnprocessableMessageException("event body is not a JSON object: " + e.getMessage());
        }
        return new EventMessage(orderId, event, payload, InboundMessages.sender(message));
    }
}
