package io.overseer.agent;

import io.overseer.agent.api.CallResult;

/**
 * What the agent machinery adds to the public {@link CallResult}: the result it makes itself when a
 * service's circuit is open (the service was not called), and the abbreviation of a long answer for a
 * result's detail. Kept out of the public API: a coded agent never makes a circuit-open result.
 */
final class CallResults {

    static final String CIRCUIT_OPEN = "circuit open: call not attempted";

    private CallResults() {
    }

    /** The circuit breaker is open: the service was not called. Transient, like any unavailability. */
    static CallResult circuitOpen() {
        return CallResult.transientFault(CIRCUIT_OPEN);
    }

    static boolean isCircuitOpen(CallResult result) {
        return result.kind() == CallResult.Kind.TRANSIENT && CIRCUIT_OPEN.equals(result.detail());
    }

    static String abbreviate(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "…";
    }
}
