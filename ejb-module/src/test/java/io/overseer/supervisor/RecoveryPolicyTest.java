package io.overseer.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.overseer.supervisor.RecoveryPolicy.Decision;
import org.junit.jupiter.api.Test;

class RecoveryPolicyTest {

    @Test
    void retriesUpToTheThresholdThenGivesUp() {
        RecoveryPolicy policy = RecoveryPolicy.retryThenGiveUp(3);

        assertEquals(Decision.RETRY, policy.onExpired(1));
        assertEquals(Decision.RETRY, policy.onExpired(3));
        assertEquals(Decision.GIVE_UP, policy.onExpired(4));
    }

    @Test
    void zeroRetriesGivesUpAtTheFirstExpiry() {
        assertEquals(Decision.GIVE_UP, RecoveryPolicy.retryThenGiveUp(0).onExpired(1));
    }

    @Test
    void negativeThresholdIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RecoveryPolicy.retryThenGiveUp(-1));
    }
}
