package io.overseer.platform;

import java.util.function.LongSupplier;

/**
 * One worker's sign of progress, kept by the worker and read by liveness ({@link Progress}). A worker
 * beats whenever it gets somewhere — a loop turns, a unit of work starts or ends — and may then stay
 * silent for its allowance (what its current unit may legitimately take) plus the liveness bound.
 *
 * <p>While the worker waits on the broker, its silence is the broker's, not its own: readiness reports
 * a broker that does not answer, and restarting this instance would not bring it back. The wait ends
 * with the next beat.
 *
 * <p>Cheap on purpose: a beat is one read of the monotonic ticker and one volatile write, no allocation.
 */
public final class Heartbeat {

    private final String name;
    private final LongSupplier ticker;
    private final long allowance;
    private volatile long lastBeat;
    private volatile boolean waitingOnBroker;

    Heartbeat(String name, LongSupplier ticker, long allowanceNanos) {
        this.name = name;
        this.ticker = ticker;
        this.allowance = allowanceNanos;
        this.lastBeat = ticker.getAsLong();
    }

    public String name() {
        return name;
    }

    /** The worker made progress. */
    public void beat() {
        lastBeat = ticker.getAsLong(); // before the flag: a reader that sees the wait over sees this beat too
        waitingOnBroker = false;
    }

    /** The worker is about to block on the broker; its next {@link #beat()} ends the wait. */
    public void waitingOnBroker() {
        lastBeat = ticker.getAsLong();
        waitingOnBroker = true;
    }

    /**
     * How far past its allowance and the bound the worker has been silent at {@code now}; zero or less
     * while it is within them or waits on the broker.
     */
    long overdue(long now, long boundNanos) {
        if (waitingOnBroker) {
            return 0;
        }
        return now - lastBeat - allowance - boundNanos;
    }
}
