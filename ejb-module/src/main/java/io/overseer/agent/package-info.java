/**
 * The Agents of the pattern: each takes attempt requests from the agents' queue, calls the remote service
 * that performs the step's operation (a coded {@link io.overseer.agent.api.RemoteService} of the public agent API, the extension
 * point, or a configured HTTP one) with retries, a circuit breaker and flow limits inside the attempt's
 * complete-by, stops when {@link io.overseer.agent.AttemptFence} says the attempt is no longer current,
 * and answers the scheduler ({@link io.overseer.agent.ReplySender}). The request and reply records
 * ({@link io.overseer.agent.AttemptRequest}, {@link io.overseer.agent.AgentReply}) are the agents'
 * contract, so they live here; the scheduler's end of the channel is in {@code scheduler}.
 *
 * <p>An agent knows nothing of the scheduler that asked it. May import: {@code platform},
 * {@code workflow}, {@code statestore}, {@code messaging}.
 */
package io.overseer.agent;
