package io.overseer.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overseer.statestore.ExpiryDecision;
import io.overseer.statestore.ExpiryDecision.Kind;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RecoveryPolicyTest {

    private static StepDefinition step(Duration backoff, OnExhausted onExhausted) {
        return new StepDefinition("charge", "charge", "refund", Duration.ofSeconds(30), 3, backoff,
                backoff == null ? null : backoff.multipliedBy(4), onExhausted);
    }

    @Test
    void retriesAtOnceUpToTheLimitThenCompensates() {
        RecoveryPolicy policy = RecoveryPolicy.of(step(null, OnExhausted.COMPENSATE), false);

        assertEquals(Kind.RETRY_NOW, policy.onExpired(1).kind());
        assertEquals(Kind.RETRY_NOW, policy.onExpired(3).kind());
        assertEquals(Kind.COMPENSATE, policy.onExpired(4).kind());
    }

    @Test
    void retriesAfterAnExponentialCappedWait() {
        RecoveryPolicy policy = RecoveryPolicy.of(step(Duration.ofSeconds(1), OnExhausted.COMPENSATE), false);

        assertEquals(new ExpiryDecision(Kind.RETRY_LATER, Duration.ofSeconds(1)), policy.onExpired(1));
        assertEquals(Duration.ofSeconds(2), policy.onExpired(2).delay());
        assertEquals(Duration.ofSeconds(4), policy.onExpired(3).delay());
    }

    @Test
    void givesUpToErrorWhenTheStepSaysSo() {
        assertEquals(Kind.ERROR, RecoveryPolicy.of(step(null, OnExhausted.ERROR), false).onExpired(4).kind());
    }

    @Test
    void aCompensationThatKeepsExpiringEndsInError() {
        assertEquals(Kind.ERROR, RecoveryPolicy.of(step(null, OnExhausted.COMPENSATE), true).onExpired(4).kind());
    }
}
