package io.overseer.agent;

import java.time.Duration;

/**
 * A remote service the agents call: the extension point for adding an agent of your own. Write one
 * {@code @ApplicationScoped} class implementing this interface, package it with the application (in
 * the WAR's {@code WEB-INF/lib} or {@code WEB-INF/classes}; in the EAR, inside its EJB module — a jar in
 * the EAR's {@code lib/} cannot see this interface), and every step
 * whose operation it {@linkplain #performs performs} is sent to it. Everything around the call is the
 * agent's, not yours: the deadline (the {@code timeout} you get is what is left of the attempt's
 * complete-by), the fencing check before each call, retries with backoff, the circuit breaker (one
 * per service, keyed by {@link #name()}), metrics, and the reply to the scheduler.
 *
 * <p>Your part is the contract of one call:
 * <ul>
 *   <li>send {@link AgentRequest#idempotencyKey()} so that the service applies the effect once however
 *       often it is asked — the agent may call again after a timeout, and so may another instance;</li>
 *   <li>return within {@code timeout} (give it to your HTTP client as its request timeout);</li>
 *   <li>classify the answer: {@link CallResult#success}, {@link CallResult#transientFault} (may pass
 *       on retry: timeouts, unavailability, throttling), or {@link CallResult#refused} (a business
 *       rejection that retrying cannot change). An exception thrown from {@code call} counts as a
 *       transient fault.</li>
 * </ul>
 * Services configured instead of coded are {@link HttpRemoteService}s; see {@link RemoteServices}.
 */
public interface RemoteService {

    /** Unique name; keys this service's circuit breaker and its configuration. */
    String name();

    /** Whether this service performs {@code operation} (a step's operation or its compensation). */
    boolean performs(String operation);

    /** One call for one attempt; see the class comment for the contract. */
    CallResult call(AgentRequest request, Duration timeout);
}
