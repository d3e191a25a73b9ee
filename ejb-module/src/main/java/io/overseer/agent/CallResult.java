package io.overseer.agent;

/** The outcome of one call to a remote service, classified for the retry loop. */
public record CallResult(Kind kind, String detail) {

    static final String CIRCUIT_OPEN = "circuit open: call not attempted";

    public enum Kind {
        /** Applied (now, or earlier under the same idempotency key). */
        SUCCESS,
        /** May pass: timeouts, connection failures, unavailability, throttling. Retried within the deadline. */
        TRANSIENT,
        /** Will not pass by retrying: a business rejection. Reported to the scheduler at once. */
        NONTRANSIENT
    }

    public CallResult {
        if (kind == null) {
            throw new IllegalArgumentException("a call result needs a kind");
        }
    }

    public static CallResult success(String detail) {
        return new CallResult(Kind.SUCCESS, detail);
    }

    public static CallResult transientFault(String detail) {
        return new CallResult(Kind.TRANSIENT, detail);
    }

    public static CallResult refused(String detail) {
        return new CallResult(Kind.NONTRANSIENT, detail);
    }

    /** The circuit breaker is open: the service was not called. Transient, like any unavailability. */
    static CallResult circuitOpen() {
        return new CallResult(Kind.TRANSIENT, CIRCUIT_OPEN);
    }

    public boolean isCircuitOpen() {
        return kind == Kind.TRANSIENT && CIRCUIT_OPEN.equals(detail);
    }

    static String abbreviate(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "…";
    }
}
