/**
 * The shared, low-level JMS every actor sends and reads through: the one home of destination names and of
 * the order queue's contract ({@link io.overseer.messaging.Destinations},
 * {@link io.overseer.messaging.OrderQueueMessage}, whose selectors split the queue between submission's
 * listener and the scheduler's, and {@link io.overseer.messaging.InboundMessages}, what every client
 * message's body and sender are), the {@link io.overseer.messaging.Courier} that sends
 * each message after the transaction that decided it has committed, the dispatch hint
 * ({@link io.overseer.messaging.DispatchQueue}: submission, the supervisor and the operators all announce
 * work to the schedulers, so it belongs to none of them), dead-lettering and redelivery, and the broker's
 * management reads.
 *
 * <p>It carries messages and knows nothing of what they mean to an actor: each direction's own messages
 * live with their consumer (new orders in {@code submission}, external events, agent requests and replies in
 * {@code scheduler} and {@code agent}, alerts and status notifications in {@code notification}).
 * May import: {@code platform}.
 */
package io.overseer.messaging;
