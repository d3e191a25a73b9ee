package io.overseer.platform;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Whether this instance's own workers get anywhere: the agent attempts under way, the courier's sender
 * lanes and the supervisor's timer each keep a {@link Heartbeat} here, and liveness asks which of them
 * has been silent past its allowance and a bound. A worker that is stuck so long is one a restart frees.
 *
 * <p>Time is a monotonic ticker ({@code System.nanoTime} in production), not a clock: a wall clock
 * stepped forward by a few minutes would make every worker look stuck at once. Tests pass their own.
 */
@ApplicationScoped
public class Progress {

    private final LongSupplier ticker;
    private final Set<Heartbeat> heartbeats = ConcurrentHashMap.newKeySet();

    public Progress() {
        this(System::nanoTime);
    }

    Progress(LongSupplier ticker) {
        this.ticker = ticker;
    }

    /** A worker that beats on its own, e.g. a loop that turns at least every few seconds. */
    public Heartbeat watch(String name) {
        return watch(name, Duration.ZERO);
    }

    /**
     * A unit of work that may take up to {@code allowance} before it counts against the bound (an agent
     * attempt may run until its complete-by). {@link #forget} it when it ends.
     */
    public Heartbeat watch(String name, Duration allowance) {
        Heartbeat heartbeat = new Heartbeat(name, ticker, Math.max(0, allowance.toNanos()));
        heartbeats.add(heartbeat);
        return heartbeat;
    }

    public void forget(Heartbeat heartbeat) {
        heartbeats.remove(heartbeat);
    }

    /** The ticker's reading, for other signals judged against the same bound (nanos, monotonic). */
    public long now() {
        return ticker.getAsLong();
    }

    /** How many workers are watched now. */
    public int watched() {
        return heartbeats.size();
    }

    /** The workers silent for longer than their allowance plus {@code bound}, the longest first. */
    public List<Stuck> stuck(Duration bound) {
        return stuck(heartbeats, ticker.getAsLong(), bound);
    }

    static List<Stuck> stuck(Collection<Heartbeat> heartbeats, long now, Duration bound) {
        List<Stuck> stuck = new ArrayList<>();
        for (Heartbeat heartbeat : heartbeats) {
            long overdue = heartbeat.overdue(now, bound.toNanos());
            if (overdue > 0) {
                stuck.add(new Stuck(heartbeat.name(), Duration.ofNanos(overdue).plus(bound)));
            }
        }
        stuck.sort(Comparator.comparing(Stuck::silentFor).reversed());
        return stuck;
    }

    /** A worker and how long it has been silent beyond its allowance. */
    public record Stuck(String worker, Duration silentFor) {
    }
}
