package io.overseer.agent;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;

/**
 * The agent's metrics (Micrometer, served at /api/metrics by {@link io.overseer.platform.ApplicationMetrics}
 * as {@code overseer_agent_calls_total} and so on), all tagged with the
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
    MeterRegistry registry;

    public void called(String operation, Duration latency) {
        Counter.builder(CALLS).tags(operation(operation)).register(registry).increment();
        Timer.builder(LATENCY).tags(operation(operation)).register(registry).record(latency);
    }

    public void retried(String operation) {
        Counter.builder(RETRIES).tags(operation(operation)).register(registry).increment();
    }

    public void failed(String operation, FailureKind kind) {
        Counter.builder(FAILURES).tags(operation(operation).and("kind", kind.tag())).register(registry).increment();
    }

    /** Publishes the state of a service's circuit breaker. */
    public void watch(String service, CircuitBreaker breaker) {
        for (CircuitBreaker.State state : CircuitBreaker.State.values()) {
            // A strong reference: by default a gauge holds its object weakly and would read NaN once the
            // breaker is only referenced from here.
            Gauge.builder(CIRCUIT_STATE, breaker, b -> b.getState() == state ? 1 : 0)
                    .tags("service", service, "state", state.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .strongReference(true).register(registry);
        }
        Counter opened = Counter.builder(CIRCUIT_OPENED).tag("service", service).register(registry);
        breaker.getEventPublisher().onStateTransition(event -> {
            if (event.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
                opened.increment();
            }
        });
    }

    private static Tags operation(String operation) {
        return Tags.of("operation", operation);
    }
}
