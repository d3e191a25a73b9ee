package io.overseer.supervisor;

import io.overseer.workflow.StepDefinition;
import java.time.Duration;

/**
 * What the supervisor does with an attempt whose complete-by has passed — one strategy per step, from
 * its definition: retry now, retry after an extended wait (exponential backoff with a cap), or give up
 * and compensate, or give up and leave the task in Error for an operator.
 */
@FunctionalInterface
public interface RecoveryPolicy {

    record Decision(Kind kind, Duration delay) {
        public enum Kind {
            RETRY_NOW,
            RETRY_LATER,
            COMPENSATE,
            ERROR
        }

        public boolean isRetry() {
            return kind == Kind.RETRY_NOW || kind == Kind.RETRY_LATER;
        }
    }

    /** @param failures the failure count including the expiry being decided on (1 for the first) */
    Decision onExpired(int failures);

    /**
     * The policy of one step. A compensation that keeps expiring cannot itself be compensated: giving up
     * on it always means Error.
     */
    static RecoveryPolicy of(StepDefinition step, boolean compensation) {
        return failures -> {
            if (failures <= step.maxRetries()) {
                Duration delay = step.retryDelay(failures);
                return new Decision(delay.isZero() ? Decision.Kind.RETRY_NOW : Decision.Kind.RETRY_LATER, delay);
            }
            boolean compensate = !compensation && step.onExhausted() == StepDefinition.OnExhausted.COMPENSATE;
            return new Decision(compensate ? Decision.Kind.COMPENSATE : Decision.Kind.ERROR, Duration.ZERO);
        };
    }
}
