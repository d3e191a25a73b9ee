/**
 * Where orders enter: {@link io.overseer.submission.OrderSubmission} validates an order, from
 * {@code POST /api/orders} or from the order queue, takes its submission key, and hands it to the
 * scheduler, which stores it with its state records already claimed in the same transaction
 * ({@link io.overseer.scheduler.Scheduler#admit}): the pattern's scheduler creates the state record when a
 * request arrives and starts its first step. New orders on the order queue are consumed here
 * ({@link io.overseer.submission.NewOrderListener}, which takes every message the scheduler's selector
 * leaves) and read here ({@link io.overseer.submission.OrderMessages}, whatever protocol sent them), as are
 * the submission keys that make a resent order one order. Many orders at once — {@code POST /api/orders/batch},
 * a message of many orders, the in-process {@link io.overseer.submission.LocalOrders} that joins its caller's
 * transaction — go through {@link io.overseer.submission.OrderSubmission#submitAll}
 * ({@link io.overseer.submission.BatchSubmission}): each order as a single one, in one transaction.
 *
 * <p>Submission accepts, validates and hands on; the scheduler decides what starts. The dependency runs one
 * way, from the door to the scheduler (decision 0026): the scheduler never imports submission. May import:
 * {@code platform}, {@code workflow}, {@code statestore}, {@code messaging}, {@code notification},
 * {@code scheduler}.
 */
package io.overseer.submission;
