package io.overseer.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {

    private static final LoginThrottle.Policy POLICY = new LoginThrottle.Policy(3, 1000, 8000, 60_000);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LoginThrottle throttle = new LoginThrottle(now::get);

    private void advanceMillis(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void belowTheLimitNothingWaits() {
        assertEquals(0, throttle.failed("u", POLICY));
        assertEquals(0, throttle.failed("u", POLICY));
        assertEquals(0, throttle.waitMillis("u"));
    }

    @Test
    void theFailureThatReachesTheLimitImposesAWaitThatDoublesUpToTheMost() {
        throttle.failed("u", POLICY);
        throttle.failed("u", POLICY);
        assertEquals(1000, throttle.failed("u", POLICY));
        assertEquals(1000, throttle.waitMillis("u"));
        long[] expected = {2000, 4000, 8000, 8000};
        for (long wait : expected) {
            advanceMillis(throttle.waitMillis("u"));
            assertEquals(0, throttle.waitMillis("u"), "the wait is over");
            assertEquals(wait, throttle.failed("u", POLICY));
        }
    }

    @Test
    void attemptsWhileWaitingAreRefusedWithoutBeingCounted() {
        for (int i = 0; i < 3; i++) {
            throttle.failed("u", POLICY);
        }
        advanceMillis(400);
        for (int i = 0; i < 100; i++) {
            assertEquals(600, throttle.failed("u", POLICY), "the same wait, not a longer one");
        }
        advanceMillis(600);
        assertEquals(2000, throttle.failed("u", POLICY), "the next counted failure doubles the first wait only");
    }

    @Test
    void theRealUserIsNeverLockedOutForGood() {
        for (int i = 0; i < 50; i++) {
            throttle.failed("u", POLICY);
            advanceMillis(throttle.waitMillis("u"));
        }
        advanceMillis(8000);
        assertEquals(0, throttle.waitMillis("u"), "at most the longest wait after the last failure");
        throttle.succeeded("u");
        assertEquals(0, throttle.failed("u", POLICY), "a login forgets the failures");
    }

    @Test
    void failuresAreForgottenAfterAQuietPeriod() {
        throttle.failed("u", POLICY);
        throttle.failed("u", POLICY);
        advanceMillis(60_000);
        assertEquals(0, throttle.failed("u", POLICY), "two failures a minute ago no longer count");
        assertEquals(0, throttle.failed("u", POLICY));
        assertEquals(1000, throttle.failed("u", POLICY));
    }

    @Test
    void keysAreIndependent() {
        for (int i = 0; i < 3; i++) {
            throttle.failed("address:10.0.0.1", POLICY);
        }
        assertTrue(throttle.waitMillis("address:10.0.0.1") > 0);
        assertEquals(0, throttle.waitMillis("address:10.0.0.2"));
        assertEquals(0, throttle.failed("address:10.0.0.2", POLICY));
    }

    @Test
    void aGuesserRotatingNamesCannotGrowTheTableWithoutBound() {
        for (int i = 0; i < LoginThrottle.MAX_KEYS + 500; i++) {
            throttle.failed("user:guess-" + i, POLICY);
        }
        assertTrue(throttle.size() <= LoginThrottle.MAX_KEYS, "at most " + LoginThrottle.MAX_KEYS + ": " + throttle.size());
    }

    @Test
    void anInconsistentPolicyIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LoginThrottle.Policy(0, 1000, 8000, 60_000));
        assertThrows(IllegalArgumentException.class, () -> new LoginThrottle.Policy(3, 9000, 8000, 60_000));
    }
}
