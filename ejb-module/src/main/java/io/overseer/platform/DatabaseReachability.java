package io.overseer.platform;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Whether this instance reaches its database, as its own work last found it. An instance cut off from
 * the database but not from the broker would otherwise go on taking agent requests and replies it cannot
 * act on, holding each for a connection timeout and handing it back to the broker's growing redelivery
 * delay, while the steps they belong to expire again and again (seen: a healthy order compensated after
 * nine expiries, docs/network-faults.md). Once a connection failed, the consumers hand deliveries back at
 * once ({@link io.overseer.messaging.DeadLetters#handBack}) for the other instances to take, and one of
 * them every {@link #RETRY} tries the database again; the first success clears it. The due-order and
 * stranded-order pollers (every second and every 5 s) and the readiness check (bounded to 3 s, however
 * often it is asked) report what they find too, so that an instance cut off learns it before its consumers
 * meet a pooled connection that waits out its socket timeout, and one healed learns it without a delivery.
 *
 * <p>Intervals on {@link System#nanoTime()}: a local stopwatch, not a point in time to compare with the
 * database's clock (which is what is away). Tests pass their own ticker.
 */
@ApplicationScoped
public class DatabaseReachability {

    /** How often, while the database is away, one delivery is let through to find out whether it is back. */
    static final Duration RETRY = Duration.ofSeconds(2);

    private final LongSupplier ticker;
    private volatile boolean lost;
    private final AtomicLong nextTry = new AtomicLong();

    public DatabaseReachability() {
        this(System::nanoTime);
    }

    DatabaseReachability(LongSupplier ticker) {
        this.ticker = ticker;
    }

    /** A connection to the database failed ({@link Outage#isUnreachable}). */
    public void lost() {
        nextTry.set(ticker.getAsLong() + RETRY.toNanos());
        lost = true;
    }

    /** Work reached the database. */
    public void reached() {
        lost = false;
    }

    /**
     * Whether the caller may use the database now: always while it is not known to be away; while it is,
     * for one caller every {@link #RETRY}, which finds out.
     */
    public boolean mayTry() {
        if (!lost) {
            return true;
        }
        long now = ticker.getAsLong();
        long next = nextTry.get();
        return now - next >= 0 && nextTry.compareAndSet(next, now + RETRY.toNanos());
    }

    /** Whether the database is known to be away now. */
    public boolean isLost() {
        return lost;
    }
}
