package io.overseer.statestore;

import java.time.Duration;

/**
 * What the supervisor's recovery policy decided for an expired attempt: try it again (now, or after
 * {@code delay}), or give up on it — undoing what the order did, or stopping it in Error for an operator.
 * {@link OrderState#recoverExpired} applies it.
 */
public record ExpiryDecision(Kind kind, Duration delay) {

    public enum Kind {
        RETRY_NOW,
        RETRY_LATER,
        COMPENSATE,
        ERROR
    }

    public static final ExpiryDecision COMPENSATE = new ExpiryDecision(Kind.COMPENSATE, Duration.ZERO);
    public static final ExpiryDecision ERROR = new ExpiryDecision(Kind.ERROR, Duration.ZERO);

    /** Try again after {@code delay} (zero: at once). */
    public static ExpiryDecision retryAfter(Duration delay) {
        return new ExpiryDecision(delay.isZero() ? Kind.RETRY_NOW : Kind.RETRY_LATER, delay);
    }

    public boolean isRetry() {
        return kind == Kind.RETRY_NOW || kind == Kind.RETRY_LATER;
    }
}
