package io.overseer.agent;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

/**
 * The remote service behind a circuit breaker (MicroProfile Fault Tolerance). Over the last
 * {@code requestVolumeThreshold} calls, a {@code failureRatio} of transient faults opens the circuit;
 * while open, calls fail fast with {@link CircuitBreakerOpenException} without touching the service;
 * after {@code delay} it half-opens and lets calls through, closing again after
 * {@code successThreshold} successes. Only {@link TransientCallException} counts as a failure: a
 * business refusal is a healthy answer. Every parameter can be overridden by MicroProfile Config, e.g.
 * {@code io.overseer.agent.RemoteServiceCircuit/call/CircuitBreaker/failureRatio=0.5}.
 *
 * <p>A bean of its own, because the Fault Tolerance interceptor only sees calls that come through the
 * container's proxy, never a bean's calls to itself.
 */
@ApplicationScoped
public class RemoteServiceCircuit {

    @Inject
    RemoteServiceClient client;

    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5000, successThreshold = 1,
            failOn = TransientCallException.class)
    public CallResult call(AgentRequest request, Duration timeout) throws TransientCallException {
        return raiseTransient(client.call(request, timeout));
    }

    /** Successes and refusals pass through; transient outcomes become {@link TransientCallException}. */
    static CallResult raiseTransient(CallResult result) throws TransientCallException {
        if (result.kind() == CallResult.Kind.TRANSIENT) {
            throw new TransientCallException(result);
        }
        return result;
    }

    /**
     * Calls through the circuit and maps the outcome back to a {@link CallResult}: an open circuit is a
     * transient fault, which the agent retries with backoff inside its deadline.
     */
    public static CallResult guarded(GuardedCall call) {
        try {
            return call.call();
        } catch (TransientCallException e) {
            return e.result();
        } catch (CircuitBreakerOpenException e) {
            return CallResult.circuitOpen();
        }
    }

    /** A call through the circuit. */
    @FunctionalInterface
    public interface GuardedCall {
        CallResult call() throws TransientCallException;
    }
}
