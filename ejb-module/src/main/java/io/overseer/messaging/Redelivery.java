package io.overseer.messaging;

import io.overseer.platform.Outage;
import java.util.Optional;

/**
 * What a listener does with a message whose processing failed: have the broker deliver it again, or
 * dead-letter it with the reason. The broker itself never dead-letters the application's queues
 * (max-delivery-attempts -1 in broker.xml), because it cannot tell a poison message from an outage:
 * after a series of broker or database faults it used to fill the DLQ with good messages and no reason.
 *
 * <p>The policy: a failure of the infrastructure (the database unreachable, restarting or refusing
 * connections; the connection pool empty) is retried for as long as it lasts — the broker's redelivery
 * delay backs off to 30 s, and a message with an expiry (an agent request) ends when its attempt's
 * complete-by has passed. Agent requests and replies an instance cannot act on because it cannot reach
 * its database at all are handed back instead ({@link DeadLetters#handBack}): another instance may reach it. Any other failure is the message's or the code's: after {@link #MAX_DELIVERIES}
 * deliveries it goes to the DLQ with the failure as its reason, where an operator can see why.
 */
public final class Redelivery {

    /** Deliveries of a message that keeps failing for a reason that is not an outage. */
    public static final int MAX_DELIVERIES = 5;

    private Redelivery() {
    }

    /**
     * The reason to dead-letter the message with, or empty to have it delivered again.
     *
     * @param deliveryCount the message's JMSXDeliveryCount (1 on its first delivery)
     */
    public static Optional<String> deadLetterReason(int deliveryCount, Throwable failure) {
        if (Outage.isOutage(failure) || deliveryCount < MAX_DELIVERIES) {
            return Optional.empty();
        }
        return Optional.of("failed on " + deliveryCount + " deliveries: " + summary(failure));
    }

    /** The deepest cause, named with its message, bounded: what an operator reads in the DLQ. */
    static String summary(Throwable failure) {
        Throwable root = failure;
        int depth = 0;
        for (Throwable cause = failure; cause != null && depth++ < Outage.MAX_DEPTH; cause = Outage.next(cause)) {
            root = cause;
        }
        String text = root.getClass().getName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
        return text.length() <= 500 ? text : text.substring(0, 500) + "…";
    }
}
