package io.overseer.agent.api;

import java.util.Objects;

/**
 * The outcome of one call to a remote service, classified for the retry loop. Made by its factories
 * ({@link #success}, {@link #transientFault}, {@link #refused}); a value: two results of the same kind and
 * detail are equal. A final class rather than a record, so that a later release can add to it (a hint such as
 * "retry after") without breaking code compiled against this one.
 */
public final class CallResult {

    /**
     * The classes of outcome. Within a major version no value is added, so a {@code switch} over all three
     * stays exhaustive.
     */
    public enum Kind {
        /** Applied (now, or earlier under the same idempotency key). */
        SUCCESS,
        /** May pass: timeouts, connection failures, unavailability, throttling. Retried within the deadline. */
        TRANSIENT,
        /** Will not pass by retrying: a business rejection. Reported to the scheduler at once. */
        NONTRANSIENT
    }

    private final Kind kind;
    private final String detail;

    private CallResult(Kind kind, String detail) {
        this.kind = Objects.requireNonNull(kind, "a call result needs a kind");
        this.detail = detail;
    }

    /**
     * The effect is applied.
     *
     * @param detail what the service answered, in words (may be null)
     * @return a result of kind {@link Kind#SUCCESS}
     */
    public static CallResult success(String detail) {
        return new CallResult(Kind.SUCCESS, detail);
    }

    /**
     * The call may pass if tried again: it is retried, with backoff, while the attempt's deadline allows.
     *
     * @param detail why, in words (may be null)
     * @return a result of kind {@link Kind#TRANSIENT}
     */
    public static CallResult transientFault(String detail) {
        return new CallResult(Kind.TRANSIENT, detail);
    }

    /**
     * The service refused: the step fails at once, and the workflow's failure policy (usually compensation)
     * follows.
     *
     * @param detail the service's reason, in words (may be null); shown in the order's history
     * @return a result of kind {@link Kind#NONTRANSIENT}
     */
    public static CallResult refused(String detail) {
        return new CallResult(Kind.NONTRANSIENT, detail);
    }

    /**
     * What the outcome means for the step.
     *
     * @return done, worth retrying, or refused; never null
     */
    public Kind kind() {
        return kind;
    }

    /**
     * What happened, in words, for the order's history and the logs.
     *
     * @return the detail given to the factory, or null
     */
    public String detail() {
        return detail;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CallResult that && kind == that.kind && Objects.equals(detail, that.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, detail);
    }

    @Override
    public String toString() {
        return "CallResult[" + kind + (detail == null ? "" : ": " + detail) + "]";
    }
}
