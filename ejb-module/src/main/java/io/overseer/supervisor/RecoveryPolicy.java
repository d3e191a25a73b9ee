package io.overseer.supervisor;

import io.overseer.statestore.ExpiryDecision;
import io.overseer.workflow.StepDefinition;

/**
 * What the supervisor does with an attempt whose complete-by has passed — one strategy per step, from
 * its definition: retry now, retry after an extended wait (exponential backoff with a cap), or give up
 * and compensate, or give up and leave the task in Error for an operator.
 */
@FunctionalInterface
public interface RecoveryPolicy {

    /** @param failures the failure count including the expiry being decided on (1 for the first) */
    ExpiryDecision onExpired(int failures);

    /**
     * The policy of one step. A compensation that keeps expiring cannot itself be compensated: giving up
     * on it always means Error.
     */
    static RecoveryPolicy of(StepDefinition step, boolean compensation) {
        return failures -> {
            if (failures <= step.maxRetries()) {
                return ExpiryDecision.retryAfter(step.retryDelay(failures));
            }
            boolean compensate = !compensation && step.onExhausted() == StepDefinition.OnExhausted.COMPENSATE;
            return compensate ? ExpiryDecision.COMPENSATE : ExpiryDecision.ERROR;
        };
    }
}
