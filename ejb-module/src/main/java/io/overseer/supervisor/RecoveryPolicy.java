package io.overseer.supervisor;

/** What the supervisor does with a step whose complete-by time has passed. */
public interface RecoveryPolicy {

    enum Decision {
        /** Reset the task to Pending with a new complete-by; a scheduler runs the step again. */
        RETRY,
        /** Set the task to Error and alert an operator. */
        GIVE_UP
    }

    /** @param failures the failure count including the expiry being decided on (1 for the first) */
    Decision onExpired(int failures);

    /** Retries until the failure count passes {@code maxRetries}, then gives up. */
    static RecoveryPolicy retryThenGiveUp(int maxRetries) {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be >= 0, was " + maxRetries);
        }
        return failures -> failures > maxRetries ? Decision.GIVE_UP : Decision.RETRY;
    }
}
