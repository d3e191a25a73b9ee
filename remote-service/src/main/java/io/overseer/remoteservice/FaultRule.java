package io.overseer.remoteservice;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.regex.Pattern;

/**
 * A fault for one operation, or for every operation without its own rule ({@code "*"}).
 *
 * @param rate      probability in [0, 1] that a request is affected
 * @param latencyMs the delay of {@link FaultMode#LATENCY}
 */
@JsonPropertyOrder({"operation", "mode", "rate", "latencyMs"})
record FaultRule(String operation, FaultMode mode, double rate, long latencyMs) {

    static final String ANY_OPERATION = "*";
    static final Pattern OPERATION_NAME = Pattern.compile("[a-z0-9-]{1,64}");
    // Nothing waits longer than a hang would.
    static final long MAX_LATENCY_MS = HangHolder.MAX_HOLD.toMillis();

    /** Validates a {@code PUT /faults} body, applying the documented defaults. */
    static FaultRule from(Request request) {
        if (request == null) {
            throw ProblemException.badRequest("A fault rule body is required");
        }
        String operation = request.operation();
        if (operation == null || !(ANY_OPERATION.equals(operation) || OPERATION_NAME.matcher(operation).matches())) {
            throw ProblemException.badRequest("operation must be \"*\" or match [a-z0-9-]{1,64}");
        }
        if (request.mode() == null) {
            throw ProblemException.badRequest("mode is required");
        }
        double rate = request.rate() == null ? 1.0 : request.rate();
        if (!(rate >= 0.0 && rate <= 1.0)) {
            throw ProblemException.badRequest("rate must be between 0.0 and 1.0");
        }
        long latencyMs = request.latencyMs() == null ? 0 : request.latencyMs();
        if (latencyMs < 0 || latencyMs > MAX_LATENCY_MS) {
            throw ProblemException.badRequest("latencyMs must be between 0 and " + MAX_LATENCY_MS);
        }
        return new FaultRule(operation, FaultMode.fromWire(request.mode()), rate, latencyMs);
    }

    /** The wire form, with optional fields left null so that defaults can be told apart. */
    record Request(String operation, String mode, Double rate, Long latencyMs) {
    }
}
