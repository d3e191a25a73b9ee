/**
 * The Scheduler of the pattern: claims work exclusively from the state store, sends each step's attempt
 * to the agents ({@link io.overseer.scheduler.AgentGateway}), applies their replies, runs a workflow's
 * steps in order and its compensations in reverse; pollers claim what no hint announced. It consumes the
 * order queue ({@link io.overseer.scheduler.OrderQueueListener}): dispatch hints and external events are
 * its own work, and a new order arriving there is handed to {@code submission} to be validated and
 * stored, then claimed.
 *
 * <p>Why scheduler → submission and not the reverse: the pattern's data flows from submission (which
 * writes and announces) to the schedulers (which consume and claim), so the consumer depends on the
 * writer and the writer never learns who claims its work. May import: {@code platform}, {@code workflow},
 * {@code statestore}, {@code messaging}, {@code notification}, {@code agent}, {@code submission}.
 */
package io.overseer.scheduler;
