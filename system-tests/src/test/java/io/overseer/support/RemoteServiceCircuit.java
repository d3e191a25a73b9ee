package io.overseer.support;

import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The circuit of {@code remote-service} — the simulator as the catch-all HTTP service, which most tests'
 * orders go through — closed before a test starts. The Arquillian tier runs every class on one server, so
 * one class's faults (timeouts and 5xx count as the service's failures) can leave that circuit open for the
 * next: open at half of 10 calls failing, for 5 s (the defaults), and an idle circuit half-opens only on
 * the next call. A call it refuses makes the next class's order expire, which that class is not about
 * (seen before in OrderFlowIT, when its siblings' timeouts opened it).
 *
 * <p>When it is open, orders of a probe customer give it the calls it needs (as CircuitBreakerIT does), and
 * the last probe must have finished before the test starts, so that none of its calls lands in the counts
 * or the faults of the test.
 */
public final class RemoteServiceCircuit {

    /**
     * Open for 5 s, then a probe's call; a probe that meets the circuit still open expires after its 3 s
     * complete-by and the supervisor's 1 s sweep retries it: about 10 s. 60 s, the tests' usual wait for an
     * order, leaves room for a second probe on a loaded machine.
     */
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final Logger LOG = Logger.getLogger(RemoteServiceCircuit.class.getName());
    private static final Set<String> FINAL = Set.of("Processed", "Compensated", "Error");

    private RemoteServiceCircuit() {
    }

    /** Returns at once when the circuit is closed (or has never been used), else probes it closed. */
    public static void awaitClosed(URI root) {
        if (closed(Metrics.scrape(root))) {
            return;
        }
        LOG.info("The circuit of remote-service is not closed as a test starts: probing it");
        OrdersApi api = new OrdersApi(root);
        String[] probe = {null};
        Poll.until("the circuit of remote-service to close and its last probe order to finish", BOUND, () -> {
            boolean probeDone = probe[0] == null || FINAL.contains(api.get(probe[0]).get("processState").asText());
            if (!probeDone) {
                return false;
            }
            if (closed(Metrics.scrape(root))) {
                return true;
            }
            probe[0] = api.submit("c-circuit-settle", "single-charge");
            return false;
        });
    }

    private static boolean closed(Metrics metrics) {
        return metrics.sum("overseer_agent_circuit_state", "service", "remote-service", "state", "open")
                + metrics.sum("overseer_agent_circuit_state", "service", "remote-service", "state", "half-open") == 0;
    }
}
