package io.overseer.agent;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The agent's MicroProfile Metrics (application scope, served at /metrics), all tagged with the
 * operation: {@value #CALLS} (calls made to the remote service), {@value #RETRIES} (retries inside an
 * attempt), {@value #FAILURES} tagged {@code kind} (see {@link FailureKind}) and {@value #LATENCY} (a
 * timer over calls made). Calls refused by an open circuit count as failures of kind circuit-open, not
 * as calls.
 */
@ApplicationScoped
public class AgentMetrics {

    public static final String CALLS = "overseer.agent.calls";
    public static final String RETRIES = "overseer.agent.retries";
    public static final String FAILURES = "overseer.agent.failures";
    public static final String LATENCY = "overseer.agent.call.duration";

    /** Why an attempt, or a call within it, did not succeed. */
    public enum FailureKind {
        TRANSIENT("transient"),
        NONTRANSIENT("nontransient"),
        CIRCUIT_OPEN("circuit-open"),
        DEADLINE_ABANDONED("deadline-abandoned"),
        FENCED("fenced");

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

    private static Tag operation(String operation) {
        return new Tag("operation", operation);
    }
}
