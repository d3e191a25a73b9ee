package io.overseer.chaos;

import java.time.Duration;
import java.util.List;

/**
 * The run's clock, shared by the workload and the fault schedule, which keeps them in the order the seed
 * drew: an order planned after a fault is not sent before that fault has struck. When a fault starts late
 * (the one before it took longer than its slot: a restart on a busy machine), the lag is added to
 * everything planned after it, so the workload waits with it instead of running ahead and leaving the
 * remaining faults to strike an idle system.
 */
final class PlanClock {

    private final long t0;
    private final List<Duration> faultTimes;
    private int started;
    private long lagNanos;

    PlanClock(long t0, List<PlannedFault> faults) {
        this.t0 = t0;
        this.faultTimes = faults.stream().map(PlannedFault::at).toList();
    }

    long t0() {
        return t0;
    }

    /** For the workload: waits until every fault planned at or before {@code planned} has struck, then says when it is due. */
    synchronized long dueNanos(Duration planned) throws InterruptedException {
        while (started < faultTimes.size() && faultTimes.get(started).compareTo(planned) <= 0) {
            wait();
        }
        return t0 + planned.toNanos() + lagNanos;
    }

    /** When fault {@code index} is due, the lag so far included. */
    synchronized long faultDueNanos(int index) {
        return t0 + faultTimes.get(index).toNanos() + lagNanos;
    }

    /** Fault {@code index} strikes now: whatever it is late by becomes part of the lag. */
    synchronized void faultStarted(int index, long nowNanos) {
        lagNanos = Math.max(lagNanos, nowNanos - t0 - faultTimes.get(index).toNanos());
        started = index + 1;
        notifyAll();
    }

    /** The schedule is over (or failed): nothing holds the workload any more. */
    synchronized void finish() {
        started = faultTimes.size();
        notifyAll();
    }

    synchronized long lagMillis() {
        return lagNanos / 1_000_000;
    }
}
