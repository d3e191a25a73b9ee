package io.overseer.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for the stack to reach a state: tests poll what a user could observe, never sleep a fixed time. */
public final class Poll {

    private Poll() {
    }

    /** Polls every 50 ms until {@code condition} holds; fails naming {@code what} and the orders' states. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Waited " + timeout + " for " + what + "; orders: " + TestStack.statesSummary());
            }
            sleep(50);
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
