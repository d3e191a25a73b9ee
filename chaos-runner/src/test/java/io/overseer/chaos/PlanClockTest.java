package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The workload keeps behind the faults planned before it, and a late fault delays what follows by as much. */
class PlanClockTest {

    private static PlannedFault fault(int index, int atSeconds) {
        return new PlannedFault(index, FaultKind.DB_KILL, Duration.ofSeconds(atSeconds), Duration.ZERO, 0, null, 0, 0);
    }

    @Test
    void anOrderPlannedAfterAFaultWaitsForItAndInheritsItsLag() throws Exception {
        PlanClock clock = new PlanClock(0, List.of(fault(0, 10), fault(1, 20)));
        assertEquals(Duration.ofSeconds(5).toNanos(), clock.dueNanos(Duration.ofSeconds(5)), "before any fault: on time");
        CompletableFuture<Long> afterFirst = CompletableFuture.supplyAsync(() -> due(clock, 12));
        Thread.sleep(200);
        assertTrue(!afterFirst.isDone(), "an order planned at 12 s must wait for the fault planned at 10 s");
        clock.faultStarted(0, Duration.ofSeconds(40).toNanos()); // 30 s late
        assertEquals(Duration.ofSeconds(42).toNanos(), afterFirst.get(5, TimeUnit.SECONDS));
        assertEquals(Duration.ofSeconds(50).toNanos(), clock.faultDueNanos(1), "the next fault keeps its spacing");
        clock.finish();
        assertEquals(Duration.ofSeconds(55).toNanos(), clock.dueNanos(Duration.ofSeconds(25)));
    }

    private static long due(PlanClock clock, int seconds) {
        try {
            return clock.dueNanos(Duration.ofSeconds(seconds));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
