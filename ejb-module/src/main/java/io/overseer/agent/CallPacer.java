package io.overseer.agent;

import io.overseer.statestore.FlowWindows;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;

/**
 * The per-second flow limit where a remote service measures it: at each call's start, across every
 * instance. The claim's limit ({@code io.overseer.scheduler.FlowGate}) keeps work over the limit waiting in
 * the state store, but it counts attempts when they are claimed; an attempt may wait in the broker or behind
 * a busy agent before its first call, and call again after a transient fault. So each call of a limited
 * operation also takes a start in its operation's call window (flow_limit's row, locked for one small
 * transaction), by the database clock.
 *
 * <p>Calls start only in the first {@link #ADMITTING} of a second: a call admitted late in second s would
 * reach the service in its second s+1, beside that second's own starts. The rest of the second is a guard
 * band for the call's travel (the start's commit and the request on a local network, well under its
 * {@link #TRAVEL} even on a loaded machine): what the service counts in one second is then what was
 * admitted in it. The second is the database's, read once the window's row is locked, so a wait for another
 * instance's start does not eat into the band, and every instance judges it by the same clock.
 */
@Stateless
public class CallPacer {

    /**
     * The longest a call's travel to its service is allowed for: 200 ms, as 100 ms was exceeded on a loaded
     * two-core machine (a CI run saw 23 arrivals in one second of the service under a limit of 20).
     */
    static final Duration TRAVEL = Duration.ofMillis(200);
    static final Duration ADMITTING = Duration.ofSeconds(1).minus(TRAVEL);

    @Inject
    FlowWindows store;
    @Inject
    FlowLimits limits;

    /** Whether the operation's calls are paced (it has a per-second limit); no database work when not. */
    public boolean paces(String operation) {
        return limits.of(operation).map(limit -> limit.perSecond() != null).orElse(false);
    }

    /**
     * Takes a start for a call of {@code operation} now, in a transaction of its own; returns null if the call
     * may start, or when to ask again.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public OffsetDateTime tryStart(String operation) {
        int perSecond = limits.of(operation).orElseThrow().perSecond();
        FlowWindows.FlowWindow window = store.lockCallWindow(operation);
        // The database's own time, read after the lock: the wait for it must not shorten the guard band, and
        // an error in this JVM's estimate of the database clock (Clocks) must not move the band. Two instances
        // whose estimates differ by 150 ms would otherwise each fill "their" second, and 150 ms of one's
        // starts would reach the service in the other's.
        OffsetDateTime now = store.databaseNow();
        Decision decision = decide(window.start(), window.starts(), now, perSecond);
        if (decision.admitted()) {
            store.saveCallWindow(operation, decision.windowStart(), decision.starts());
            return null;
        }
        return decision.retryAt();
    }

    /** What {@link #decide} says: admitted, with the window to store, or when to ask again. */
    record Decision(boolean admitted, OffsetDateTime windowStart, int starts, OffsetDateTime retryAt) {
    }

    /** The pacing rule, pure: at most {@code perSecond} starts per second, and only in its admitting part. */
    static Decision decide(OffsetDateTime windowStart, int starts, OffsetDateTime now, int perSecond) {
        OffsetDateTime second = now.truncatedTo(ChronoUnit.SECONDS);
        OffsetDateTime next = second.plusSeconds(1);
        if (!now.isBefore(second.plus(ADMITTING))) {
            return new Decision(false, windowStart, starts, next);
        }
        int counted = windowStart != null && windowStart.isEqual(second) ? starts : 0;
        if (counted >= perSecond) {
            return new Decision(false, windowStart, starts, next);
        }
        return new Decision(true, second, counted + 1, null);
    }
}
