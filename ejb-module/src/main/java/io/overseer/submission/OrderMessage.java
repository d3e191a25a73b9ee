package io.overseer.submission;

import io.overseer.notification.ReplyTo;

/**
 * An order as it arrived on the order queue, over any protocol: the JSON body and what the message said
 * about it. {@code replyTo} (JMSReplyTo or the overseerReplyTo property) and {@code idempotencyKey} (the
 * business key, else one made of the broker's duplicate id) may be null; {@code correlationId} is the message's correlation id, else its message id; {@code sender} is the
 * broker-validated user, null if the broker does not say.
 */
public record OrderMessage(String json, ReplyTo replyTo, String correlationId, String idempotencyKey, String sender) {
}
