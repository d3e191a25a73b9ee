package io.overseer.messaging;

import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.OffsetDateTime;

/**
 * A message in the dead-letter queue, as Artemis management lists it. {@code messageId} is the broker's
 * id (what redrive and delete take), {@code originalQueue} where it came from, {@code reason} the
 * {@value Destinations#DEAD_LETTER_REASON} the application gave (null for a message the broker itself
 * moved after too many deliveries), {@code orderId} if the message names one, {@code type} the JMS kind
 * (TextMessage, BytesMessage, …), {@code body} the first {@value #MAX_BODY} characters of a text message.
 */
@JsonbNillable
@JsonbPropertyOrder({"messageId", "originalQueue", "reason", "orderId", "timestamp", "type", "body"})
public record DeadLetter(long messageId, String originalQueue, String reason, String orderId, OffsetDateTime timestamp,
                         String type, String body) {

    public static final int MAX_BODY = 2000;
}
