package io.overseer.workflow;

import java.time.Duration;
import java.util.Optional;

/**
 * One step of a workflow: the remote operation its agent performs, how long an attempt may take, what
 * the supervisor does when attempts expire, and the operation that undoes it (or none).
 *
 * @param maxRetries     expiries retried before the step is given up
 * @param backoffInitial wait before the first retry; null retries at once
 * @param backoffCap     longest wait between retries
 * @param onExhausted    what giving up means: undo the completed steps, or stop in Error for an operator
 */
public record StepDefinition(
        String name,
        String operation,
        String compensation,
        Duration completeBy,
        int maxRetries,
        Duration backoffInitial,
        Duration backoffCap,
        OnExhausted onExhausted) {

    public enum OnExhausted {
        COMPENSATE,
        ERROR
    }

    public Optional<String> compensationOperation() {
        return Optional.ofNullable(compensation);
    }

    /** How long to wait before retry number {@code failures} (1 for the first), doubling up to the cap. */
    public Duration retryDelay(int failures) {
        if (backoffInitial == null) {
            return Duration.ZERO;
        }
        Duration delay = backoffInitial;
        for (int i = 1; i < failures && delay.compareTo(backoffCap) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(backoffCap) > 0 ? backoffCap : delay;
    }
}
