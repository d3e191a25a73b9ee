package io.overseer.agent;

/** The outcome of one call to a remote service, classified for the retry loop. */
public record CallResult(Kind kind, String detail) {

    static final String CIRCUIT_OPEN = "circuit open: call not attempted";

    public enum Kind {
        /** Applied (now, or earlier under the same idempotency key). */
        SUCCESS,
        /** May pass: timeouts, connection failures, 5xx, 408, 409, 425, 429. Retry within the deadline. */
        TRANSIENT,
        /** Will not pass by retrying: a business rejection (other 4xx). Report it. */
        NONTRANSIENT
    }

    /** Classifies an HTTP status the way the remote services of this product answer. */
    public static CallResult ofStatus(int status, String body) {
        if (status >= 200 && status < 300) {
            return new CallResult(Kind.SUCCESS, body);
        }
        String detail = "HTTP " + status + (body == null || body.isBlank() ? "" : ": " + abbreviate(body));
        // 409/425: the service is still working on an earlier request with this idempotency key.
        if (status >= 500 || status == 408 || status == 409 || status == 425 || status == 429) {
            return new CallResult(Kind.TRANSIENT, detail);
        }
        return new CallResult(Kind.NONTRANSIENT, detail);
    }

    public static CallResult transientFault(String detail) {
        return new CallResult(Kind.TRANSIENT, detail);
    }

    /** The circuit breaker is open: the service was not called. Transient, like any unavailability. */
    public static CallResult circuitOpen() {
        return new CallResult(Kind.TRANSIENT, CIRCUIT_OPEN);
    }

    public boolean isCircuitOpen() {
        return kind == Kind.TRANSIENT && CIRCUIT_OPEN.equals(detail);
    }

    private static String abbreviate(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "…";
    }
}
