package io.overseer.scheduler;

/** What became of an external event delivered for an order ({@link Scheduler#deliver}). */
public enum EventReceipt {
    /** The order was waiting for it: the step completed and the order moved on. */
    RECEIVED,
    /** It had been received before: nothing changed (the first delivery's body stays). */
    ALREADY_RECEIVED,
    /** There is no such order. */
    UNKNOWN_ORDER
}
