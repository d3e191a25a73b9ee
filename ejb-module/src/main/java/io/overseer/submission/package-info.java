/**
 * Where orders enter: {@link io.overseer.submission.OrderSubmission} validates an order, from
 * {@code POST /api/orders} or from the order queue, stores it with its state records and its submission
 * key in one transaction, and announces it on the order queue for whichever scheduler claims it. Inbound
 * client messages are read here ({@link io.overseer.submission.OrderMessages}: new orders and external
 * events, whatever protocol sent them), as are the submission keys that make a resent order one order.
 *
 * <p>Submission accepts, validates and writes; it never claims or runs anything, so it never imports the
 * scheduler: it announces through {@code messaging}'s dispatch hint, and the scheduler, the order queue's
 * consumer, calls it for the new orders that arrive there. May import: {@code platform},
 * {@code workflow}, {@code statestore}, {@code messaging}, {@code notification}.
 */
package io.overseer.submission;
