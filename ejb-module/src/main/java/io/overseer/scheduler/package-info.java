/**
 * The Scheduler of the pattern: claims work exclusively from the state store, sends each step's attempt
 * to the agents ({@link io.overseer.scheduler.AgentGateway}), applies their replies, runs a workflow's
 * steps in order and its compensations in reverse; pollers claim what no hint announced. It takes its
 * own share of the order queue ({@link io.overseer.scheduler.OrderQueueListener}, by message selector):
 * the dispatch hints, which announce every new order however it arrived, and external events.
 *
 * <p>It never imports submission: the pattern's data flows from submission (which writes and announces)
 * to the schedulers (which consume the hint and claim), and a new order that arrives on the queue is
 * submission's to read and store ({@code io.overseer.submission.NewOrderListener}) before it is announced
 * like any other. May import: {@code platform}, {@code workflow}, {@code statestore}, {@code messaging},
 * {@code notification}, {@code agent}.
 */
package io.overseer.scheduler;
