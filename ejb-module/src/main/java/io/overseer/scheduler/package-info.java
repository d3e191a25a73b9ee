/**
 * The Scheduler of the pattern: claims work exclusively from the state store, sends each step's attempt
 * to the agents ({@link io.overseer.scheduler.AgentGateway}), applies their replies, runs a workflow's
 * steps in order and its compensations in reverse; pollers claim what no hint announced. It takes its
 * own share of the order queue ({@link io.overseer.scheduler.OrderQueueListener}, by message selector):
 * the dispatch hints, which announce what waits Pending, and external events.
 *
 * <p>It never imports submission: submission validates an order and hands it here
 * ({@link io.overseer.scheduler.Scheduler#admit}), where it is stored already claimed; hints announce only
 * what no claim took at once (a delayed start falling due, a hand-back, a freed flow-limit slot), and a new
 * order that arrives on the queue is submission's to read ({@code io.overseer.submission.NewOrderListener}).
 * May import: {@code platform}, {@code workflow}, {@code statestore}, {@code messaging}, {@code notification},
 * {@code agent}.
 */
package io.overseer.scheduler;
