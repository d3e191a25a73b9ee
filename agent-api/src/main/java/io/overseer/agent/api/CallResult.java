package io.overseer.agent.api;

import java.util.Objects;

/**
 * The outcome of one call to a remote service, classified for the retry loop.
 *
 * @param kind   what the outcome means for the step: done, worth retrying, or refused
 * @param detail what happened, in words, for the order's history and the logs (may be null)
 */
public record CallResult(Kind kind, String detail) {

    /** The classes of outcome. */
    public enum Kind {
        /** Applied (now, or earlier under the same idempotency key). */
        SUCCESS,
        /** May pass: timeouts, connection failures, unavailability, throttling. Retried within the deadline. */
        TRANSIENT,
        /** Will not pass by retrying: a business rejection. Reported to the scheduler at once. */
        NONTRANSIENT
    }

    /**
     * A result of a kind.
     *
     * @param kind   what the outcome means for the step
     * @param detail what happened, in words (may be null)
     * @throws NullPointerException when {@code kind} is null
     */
    public CallResult {
        Objects.requireNonNull(kind, "a call result needs a kind");
    }

    /**
     * The effect is applied.
     *
     * @param detail what the service answered, in words
     * @return a result of kind {@link Kind#SUCCESS}
     */
    public static CallResult success(String detail) {
        return new CallResult(Kind.SUCCESS, detail);
    }

    /**
     * The call may pass if tried again: it is retried, with backoff, while the attempt's deadline allows.
     *
     * @param detail why, in words
     * @return a result of kind {@link Kind#TRANSIENT}
     */
    public static CallResult transientFault(String detail) {
        return new CallResult(Kind.TRANSIENT, detail);
    }

    /**
     * The service refused: the step fails at once, and the workflow's failure policy (usually compensation)
     * follows.
     *
     * @param detail the service's reason, in words; shown in the order's history
     * @return a result of kind {@link Kind#NONTRANSIENT}
     */
    public static CallResult refused(String detail) {
        return new CallResult(Kind.NONTRANSIENT, detail);
    }
}
