package io.overseer.messaging;

import io.overseer.platform.Utf8;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.nio.charset.CharacterCodingException;

/**
 * What every client message on the order queue shares, whichever actor reads it (new orders in
 * {@code submission}, external events in {@code scheduler}): its text, however the protocol carried it,
 * and its authenticated sender. Core, OpenWire and AMQP JMS clients send a TextMessage; STOMP frames
 * with a content-length header, and AMQP messages with a binary data section, arrive as a BytesMessage —
 * accepted if they are UTF-8. A body over {@link Destinations#MAX_ORDER_BODY_BYTES} is refused unread.
 */
public final class InboundMessages {

    private InboundMessages() {
    }

    /**
     * The body as text.
     *
     * @param what what the body is ("order", "event"), for the refusal's reason
     * @throws UnprocessableMessageException neither text nor UTF-8 bytes, or too large
     */
    public static String text(Message message, String what) throws JMSException, UnprocessableMessageException {
        int max = Destinations.MAX_ORDER_BODY_BYTES;
        if (message instanceof TextMessage text && text.getText() != null) {
            if (text.getText().length() > max) {
                throw new UnprocessableMessageException(what + " body larger than " + max + " characters");
            }
            return text.getText();
        }
        if (message instanceof BytesMessage bytes) {
            return utf8(bytes, what);
        }
        throw new UnprocessableMessageException("an " + what + " must be JSON in a text message (or UTF-8 in a bytes message)");
    }

    private static String utf8(BytesMessage message, String what) throws JMSException, UnprocessableMessageException {
        long length = message.getBodyLength();
        if (length > Destinations.MAX_ORDER_BODY_BYTES) {
            throw new UnprocessableMessageException(what + " body larger than " + Destinations.MAX_ORDER_BODY_BYTES + " bytes");
        }
        byte[] bytes = new byte[(int) length];
        message.readBytes(bytes);
        try {
            return Utf8.decode(bytes);
        } catch (CharacterCodingException e) {
            throw new UnprocessableMessageException(what + " body is not UTF-8 text");
        }
    }

    /** The user the broker authenticated ({@link Destinations#VALIDATED_USER}), else JMSXUserID. */
    public static String sender(Message message) throws JMSException {
        String user = message.getStringProperty(Destinations.VALIDATED_USER);
        return user != null ? user : message.getStringProperty("JMSXUserID");
    }
}
