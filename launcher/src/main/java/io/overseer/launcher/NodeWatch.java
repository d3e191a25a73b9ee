package io.overseer.launcher;

import java.time.Duration;

/**
 * The thread behind a group's watch ({@link BrokerPair}, the lab's PostgresHa): a daemon that runs the
 * group's loop while {@link #running()}, with the restart delay the loop reads ({@link #delay()}), which a
 * second {@link #start} changes without starting a second thread. Stopping interrupts the loop and waits
 * for it, so that no restart runs behind a stop.
 */
public final class NodeWatch {

    private final String threadName;
    private final Duration joinBound;
    private volatile boolean running;
    private volatile Thread thread;
    private volatile Duration delay;

    /** {@code joinBound}: how long {@link #stop} waits for a restart under way to end. */
    public NodeWatch(String threadName, Duration delay, Duration joinBound) {
        this.threadName = threadName;
        this.delay = delay;
        this.joinBound = joinBound;
    }

    /** Runs {@code loop} on the watch's thread unless it runs already; either way the delay is {@code delay} now. */
    public synchronized void start(Duration delay, Runnable loop) {
        this.delay = delay;
        if (thread != null) {
            return;
        }
        running = true;
        thread = new Thread(loop, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** Whether the loop should go on: false once stopped, or once the group gave up ({@link #giveUp}). */
    public boolean running() {
        return running;
    }

    public Duration delay() {
        return delay;
    }

    /** The loop ends at its next turn, the thread left to end by itself (called from the loop). */
    public void giveUp() {
        running = false;
    }

    /** Ends the loop and waits for it, up to the bound. */
    public void stop() {
        running = false;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(joinBound.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        thread = null;
    }
}
