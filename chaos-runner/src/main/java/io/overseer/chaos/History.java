package io.overseer.chaos;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the checker reads, gathered after the quiet period from the submitters' records, PostgreSQL,
 * the simulator's ledger and the broker. Plain data, so the rules can be tested on histories built by hand.
 *
 * @param notifications  orderId → status notifications received on the run's reply queue; null when they
 *                       were not collected (the rule then says "not checked" rather than pass)
 * @param badMessagesSent ids of the malformed messages the broker accepted
 */
public record History(List<Submission> submissions, Map<String, StoredOrder> orders, List<Effect> effects,
                      long appliedTwice, Set<String> alertedOrders, Map<String, List<Notice>> notifications,
                      List<DeadLetter> deadLetters, Set<String> badMessagesSent) {

    /** What a submitter did and got for one planned order. */
    public record Submission(String key, String customerId, PlannedOrder.Channel channel, Outcome outcome,
                             List<String> answeredOrderIds, boolean duplicateSent, String lastError) {
    }

    public enum Outcome {
        /** REST answered 202, or the broker accepted the JMS message: the order must exist. */
        ACCEPTED,
        /** REST answered a 4xx other than 408/429: the order was refused (never expected for a valid one). */
        REFUSED,
        /** Every try failed (timeouts, 5xx, connection refused) until the submitter's deadline. */
        GAVE_UP
    }

    /** An order as PostgreSQL has it after the run. */
    public record StoredOrder(String orderId, String customerId, String processState, Instant createdAt,
                              List<Transition> history) {
    }

    /** One row of order_history; {@code step} is null for the task itself, {@code from} null for the first. */
    public record Transition(int seq, String step, String from, String to, Instant at) {
    }

    /** One effect in the simulator's ledger. */
    public record Effect(String orderId, String operation, String idempotencyKey) {
    }

    /** A status notification as received: event, step (null for task events), and its time as sent. */
    public record Notice(String event, String step, String at) {
    }

    /** A message found in the DLQ: its reason, where it came from, and the runner's mark if it sent it on purpose. */
    public record DeadLetter(String messageId, String reason, String origin, String badId) {
    }
}
