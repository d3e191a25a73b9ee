package io.overseer.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waiting for the stack to reach a state: tests poll what a user could observe, never sleep a fixed time.
 * The one home of the tests' wait loops: a wait for a condition is {@link #until}, and a test that reports
 * a timeout its own way reads the last value with {@link #await}.
 */
public final class Poll {

    private static final Duration EVERY = Duration.ofMillis(50);

    private Poll() {
    }

    /** Polls every 50 ms until {@code condition} holds; fails naming {@code what} and the orders' states. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(what, timeout, EVERY, condition::getAsBoolean, met -> met);
    }

    /**
     * Reads {@code probe} every {@code every} until {@code done} accepts a reading, and returns that reading;
     * after {@code timeout} fails naming {@code what}, the last reading and the orders' states.
     */
    public static <T> T until(String what, Duration timeout, Duration every, Supplier<T> probe, Predicate<? super T> done) {
        Reading<T> reading = await(timeout, every, probe, done);
        if (!reading.met()) {
            throw new AssertionError("Waited " + timeout + " for " + what
                    + (reading.value() instanceof Boolean ? "" : "; last: " + reading.value())
                    + "; orders: " + TestStack.statesSummary());
        }
        return reading.value();
    }

    /** The last value a wait read, and whether its condition accepted it. */
    public record Reading<T>(T value, boolean met) {
    }

    /**
     * As {@link #until}, without failing: the first reading {@code done} accepts, or the last one read once
     * {@code timeout} has passed — for a test that reports a timeout its own way, or asserts on the value.
     */
    public static <T> Reading<T> await(Duration timeout, Duration every, Supplier<T> probe, Predicate<? super T> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T value = probe.get();
            if (done.test(value)) {
                return new Reading<>(value, true);
            }
            if (System.nanoTime() > deadline) {
                return new Reading<>(value, false);
            }
            sleep(every.toMillis());
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
