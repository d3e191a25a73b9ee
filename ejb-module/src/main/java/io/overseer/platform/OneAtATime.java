package io.overseer.platform;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A timer's work that runs one at a time on this instance. An EJB timer with bean-managed concurrency fires
 * again while its last tick still runs (a slow database outlasting the period); that tick returns at once
 * here rather than do the same work beside the other one. A failure is logged and not thrown: the timer
 * must keep firing, and the next tick tries again.
 *
 * <p>With a {@link Heartbeat}, a tick that runs beats as it begins and as it ends; a skipped one does not
 * beat, so a tick that never ends leaves the heartbeat silent and liveness sees it.
 */
public final class OneAtATime {

    private final AtomicBoolean running = new AtomicBoolean();
    private final Logger log;
    private final String failure;
    private final Heartbeat heartbeat;

    /** {@code failure}: the warning logged, with the exception, when a tick fails. */
    public OneAtATime(Logger log, String failure) {
        this(log, failure, null);
    }

    /** As {@link #OneAtATime(Logger, String)}, beating {@code heartbeat} around each tick that runs. */
    public OneAtATime(Logger log, String failure, Heartbeat heartbeat) {
        this.log = log;
        this.failure = failure;
        this.heartbeat = heartbeat;
    }

    /** Runs {@code tick} unless the last one still runs; false when it was skipped or failed. */
    public boolean run(Runnable tick) {
        return call(() -> {
            tick.run();
            return true;
        }, false);
    }

    /** {@code tick}'s result, or {@code otherwise} when the last tick still runs or this one failed. */
    public <T> T call(Supplier<T> tick, T otherwise) {
        if (!running.compareAndSet(false, true)) {
            return otherwise;
        }
        beat();
        try {
            return tick.get();
        } catch (RuntimeException e) {
            log.log(Level.WARNING, failure, e);
            return otherwise;
        } finally {
            running.set(false);
            beat();
        }
    }

    private void beat() {
        if (heartbeat != null) {
            heartbeat.beat();
        }
    }
}
