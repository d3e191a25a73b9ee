package io.overseer.notification;

import java.util.Locale;

/**
 * Where a submitter wants its order's status notifications: a queue or topic by name, or a temporary
 * queue or topic of the submitter's connection. Whether a client may name it is {@link ReplyToRule}'s call.
 */
public record ReplyTo(String name, Kind kind) {

    /** Stored by name in {@code order_reply_to.destination_type}, whose CHECK constraint must list every value. */
    public enum Kind {
        QUEUE,
        TOPIC,
        TEMPORARY_QUEUE,
        TEMPORARY_TOPIC;

        public boolean isTopic() {
            return this == TOPIC || this == TEMPORARY_TOPIC;
        }
    }

    private static final String QUEUE_SCHEME = "queue://";
    private static final String TOPIC_SCHEME = "topic://";

    /** {@code queue://name}, {@code topic://name}, or a bare name, which is a queue. */
    public static ReplyTo parse(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.startsWith(TOPIC_SCHEME)) {
            return new ReplyTo(text.substring(TOPIC_SCHEME.length()), Kind.TOPIC);
        }
        if (lower.startsWith(QUEUE_SCHEME)) {
            return new ReplyTo(text.substring(QUEUE_SCHEME.length()), Kind.QUEUE);
        }
        return new ReplyTo(text, Kind.QUEUE);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', '-') + "://" + name;
    }
}
