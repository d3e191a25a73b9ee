package io.overseer.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A bulk job's pace: its rate's worth of actions for the time since its last turn, within bounds. */
class BulkJobRunnerTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aTurnASecondAfterTheLastActsOnTheRate() {
        assertEquals(50, BulkJobRunner.budget(50, SECOND));
    }

    @Test
    void aTurnAfterASkippedTickCatchesUpUpToTwoSecondsWorth() {
        assertEquals(70, BulkJobRunner.budget(50, 1_400_000_000L), "a turn that took 1.4 s");
        assertEquals(100, BulkJobRunner.budget(50, 2 * SECOND));
        assertEquals(100, BulkJobRunner.budget(50, 60 * SECOND), "a job taken over long after: no burst");
    }

    @Test
    void aSlowRateStillActsOnOneATurn() {
        assertEquals(1, BulkJobRunner.budget(1, SECOND / 2));
        assertEquals(1, BulkJobRunner.budget(1, 0));
    }
}
