package io.overseer.messaging;

/**
 * The kinds of message on the order queue, told apart by the {@link Destinations#MESSAGE_TYPE} property.
 * A message without the property is a new order from a legacy JMS client.
 */
public enum OrderQueueMessage {
    /** A new order as JSON, the same body as {@code POST /api/orders}. */
    SUBMIT,
    /** The order named by the {@link Destinations#ORDER_ID} property is Pending and ready to be claimed. */
    DISPATCH,
    /**
     * An external event for the order named by {@link Destinations#ORDER_ID}: its name in
     * {@link Destinations#EVENT_NAME}, its JSON object body (or none) kept for the workflow's later steps.
     */
    EVENT;

    public static OrderQueueMessage of(String property) {
        if (property == null || property.isBlank()) {
            return SUBMIT;
        }
        return valueOf(property.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
