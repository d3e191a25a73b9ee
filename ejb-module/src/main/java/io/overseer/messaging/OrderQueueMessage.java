package io.overseer.messaging;

/**
 * The kinds of message on the order queue, told apart by the {@link Destinations#MESSAGE_TYPE} property.
 * A message without the property is a new order from a legacy JMS client.
 *
 * <p>Two listeners share the queue, each taking its own kinds by a message selector: the scheduler's
 * ({@link #SCHEDULER_SELECTOR}) the dispatch hints and external events, submission's
 * ({@link #SUBMISSION_SELECTOR}) everything else — new orders, and whatever type it must refuse to the
 * DLQ. The second is the first negated, so every message has exactly one consumer. A selector cannot
 * trim or fold case, so the scheduler's kinds are listed in the spellings clients use; another spelling
 * of them reaches submission, which refuses it with the reason.
 */
public enum OrderQueueMessage {
    /**
     * A new order as JSON, the same body as {@code POST /api/orders}; or many, {@code {"orders":[order, …]}}
     * (io.overseer.submission.OrderBatchMessages).
     */
    SUBMIT,
    /** The order named by the {@link Destinations#ORDER_ID} property is Pending and ready to be claimed. */
    DISPATCH,
    /**
     * An external event for the order named by {@link Destinations#ORDER_ID}: its name in
     * {@link Destinations#EVENT_NAME}, its JSON object body (or none) kept for the workflow's later steps.
     */
    EVENT;

    /** The spellings of {@link #DISPATCH} and {@link #EVENT} the scheduler's listener receives. */
    public static final String SCHEDULER_SELECTOR = Destinations.MESSAGE_TYPE
            + " IN ('DISPATCH', 'dispatch', 'Dispatch', 'EVENT', 'event', 'Event')";
    /** Every message the scheduler's listener does not take; {@code IS NULL} because NOT IN on null is unknown. */
    public static final String SUBMISSION_SELECTOR = Destinations.MESSAGE_TYPE + " IS NULL OR NOT ("
            + SCHEDULER_SELECTOR + ")";

    public static OrderQueueMessage of(String property) {
        if (property == null || property.isBlank()) {
            return SUBMIT;
        }
        return valueOf(property.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
