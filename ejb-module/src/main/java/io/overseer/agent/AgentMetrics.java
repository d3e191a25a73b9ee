package io.overseer.agent;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The agent's MicroProfile Metrics (application scope, served at /metrics), all tagged with the
 * operation: {@value #CALLS} (calls made to the remote service), {@value #RETRIES} (retries inside an
 * attempt), {@value #FAILURES} tagged {@code kind} (see {@link FailureKind}) and {@value #LATENCY} (a
 * timer over calls made). Calls refused by an open circuit count as failures of kind circuit-open, not
 * as calls. Circuits are per remote service: {@value #CIRCUIT_STATE} tagged {@code service} and
 * {@code state} is 1 for the current state and 0 for the others; {@value #CIRCUIT_OPENED} counts the
 * times a service's circuit opened.
 */
@ApplicationScoped
public class AgentMetrics {

    public static final String CALLS = "overseer.agent.calls";
    public static final String RETRIES = "overseer.agent.retries";
    public static final String FAILURES = "overseer.agent.failures";
    public static final String LATENCY = "overseer.agent.call.duration";
    public static final String CIRCUIT_STATE = "overseer.agent.circuit.state";
    public static final String CIRCUIT_OPENED = "overseer.agent.circuit.opened";

    /** Why an attempt, or a call within it, did not succeed. */
    public enum FailureKind {
        TRANSIENT("transient"),
        NONTRANSIENT("nontransient"),
        CIRCUIT_OPEN("circuit-open"),
        DEADLINE_ABANDONED("deadline-abandoned"),
        FENCED("fenced"),
        HANDED_BACK("handed-back");

        private final String tag;

        FailureKind(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    @Inject
    MetricRegistry registry;

    public void called(String operation, Duration latency) {
        registry.counter(CALLS, operation(operation)).inc();
        registry.timer(LATENCY, operation(operation)).update(latency);
    }

    public void retried(String operation) {
        registry.counter(RETRIES, operation(operation)).inc();
    }

    public void failed(String operation, FailureKind kind) {
        registry.counter(FAILURES, operation(operation), new Tag("kind", kind.tag())).inc();
    }

    /** Publishes the state of a service's circuit breaker. */
    public void watch(String service, CircuitBreaker breaker) {
        Tag serviceTag = new Tag("service", service);
        for (CircuitBreaker.State state : CircuitBreaker.State.values()) {
            registry.gauge(CIRCUIT_STATE, () -> breaker.getState() == state ? 1 : 0, serviceTag,
                    new Tag("state", state.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')));
        }
        Counter opened = registry.counter(CIRCUIT_OPENED, serviceTag);
        breaker.getEventPublisher().onStateTransition(event -> {
            if (event.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
                opened.inc();
            }
        });
    }

    private static Tag operation(String operation) {
        return new Tag("operation", operation);
    }
}
