package io.overseer.agent.api;

import java.time.Duration;

/**
 * A remote service the agents call: the extension point for adding an agent of your own. Write one
 * {@code @ApplicationScoped} class implementing this interface in a library of your own (a jar in your EAR's
 * {@code lib/}, or in your WAR's {@code WEB-INF/lib}), and every step whose operation it {@linkplain #performs
 * performs} is sent to it. At deployment every operation and compensation of every workflow must be
 * performed by exactly one service, coded or configured: two claims, or an operation nobody performs,
 * fail the deployment with a message naming them.
 *
 * <p>Everything around the call is Overseer's, not yours: the deadline (the {@code timeout} you get is what
 * is left of the attempt's complete-by), the fencing check before each call, retries with backoff, the
 * circuit breaker (one per service, keyed by {@link #name()}), metrics, tracing, and the reply to the
 * scheduler.
 *
 * <p>Your part is the contract of one call:
 * <ul>
 *   <li>send {@link AgentRequest#idempotencyKey()} so that the service applies the effect once however
 *       often it is asked: the agent may call again after a timeout, and so may another instance after a
 *       crash;</li>
 *   <li>return within {@code timeout} (give it to your client as its request timeout);</li>
 *   <li>classify the answer: {@link CallResult#success}, {@link CallResult#transientFault} (may pass on
 *       retry: timeouts, unavailability, throttling), or {@link CallResult#refused} (a business rejection
 *       that retrying cannot change; the step fails and the order is compensated). An exception thrown from
 *       {@code call} counts as a transient fault.</li>
 * </ul>
 * Calls for different orders come concurrently, on several threads: the class must be thread-safe.
 * {@link #name()} and {@link #performs} are asked at deployment, and their answers hold until the next one.
 */
public interface RemoteService {

    /**
     * This service's name, unique among the deployment's services (coded and configured). It keys the
     * service's circuit breaker and its settings ({@code overseer.agent.service.<name>.circuit.*}) and labels
     * its metrics.
     *
     * @return the name: 1 to 64 letters, digits, '.', '_' or '-' (a deployment with another fails, saying so)
     */
    String name();

    /**
     * Whether this service performs an operation: a workflow step's operation or a compensation.
     *
     * @param operation the operation's name as the workflow definition gives it
     * @return true if steps of this operation are to be sent to this service
     */
    boolean performs(String operation);

    /**
     * One call for one attempt; see the class comment for the contract.
     *
     * @param request the attempt: which order, which step, the idempotency key to send, the order's content
     * @param timeout what is left of the attempt's deadline; always positive
     * @return the classified outcome, never null
     */
    CallResult call(AgentRequest request, Duration timeout);
}
