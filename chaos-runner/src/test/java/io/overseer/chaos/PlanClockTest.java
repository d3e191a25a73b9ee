package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.FutureTask;
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
        FutureTask<Long> afterFirst = new FutureTask<>(() -> clock.dueNanos(Duration.ofSeconds(12)));
        Thread workload = new Thread(afterFirst, "workload");
        workload.start();
        try {
            awaitWaitingOrDone(workload, afterFirst);
            assertFalse(afterFirst.isDone(), "an order planned at 12 s must wait for the fault planned at 10 s");
            clock.faultStarted(0, Duration.ofSeconds(40).toNanos()); // 30 s late
            assertEquals(Duration.ofSeconds(42).toNanos(), afterFirst.get(5, TimeUnit.SECONDS));
        } finally {
            workload.interrupt();
        }
        assertEquals(Duration.ofSeconds(50).toNanos(), clock.faultDueNanos(1), "the next fault keeps its spacing");
        clock.finish();
        assertEquals(Duration.ofSeconds(55).toNanos(), clock.dueNanos(Duration.ofSeconds(25)));
    }

    /**
     * Until the workload's thread waits (on the clock: it does nothing else) or has its answer: whichever
     * comes first, so that the assertion after it fails at once if the order did not wait.
     */
    private static void awaitWaitingOrDone(Thread thread, FutureTask<?> task) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && !task.isDone()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the workload neither waited nor returned: " + thread.getState());
            }
            Thread.yield();
        }
    }
}
