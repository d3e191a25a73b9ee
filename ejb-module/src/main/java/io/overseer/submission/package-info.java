/**
 * Where orders enter: {@link io.overseer.submission.OrderSubmission} validates an order, from
 * {@code POST /api/orders} or from the order queue, stores it with its state records and its submission
 * key in one transaction, and announces it with a dispatch hint for whichever scheduler claims it. New
 * orders on the order queue are consumed here ({@link io.overseer.submission.NewOrderListener}, which
 * takes every message the scheduler's selector leaves) and read here
 * ({@link io.overseer.submission.OrderMessages}, whatever protocol sent them), as are the submission keys
 * that make a resent order one order. Many orders at once — {@code POST /api/orders/batch}, a message of many
 * orders, the in-process {@link io.overseer.submission.LocalOrders} that joins its caller's transaction — go
 * through {@link io.overseer.submission.OrderSubmission#submitAll} ({@link io.overseer.submission.BatchSubmission}):
 * each order as a single one, in one transaction.
 *
 * <p>Submission accepts, validates and writes; it never claims or runs anything, so it never imports the
 * scheduler: over HTTP and over JMS alike it announces through {@code messaging}'s dispatch hint, and
 * never learns who claims the work. May import: {@code platform}, {@code workflow}, {@code statestore},
 * {@code messaging}, {@code notification}.
 */
package io.overseer.submission;
