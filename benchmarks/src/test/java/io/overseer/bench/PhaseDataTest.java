package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseDataTest {

    private static final long MS = 1000; // history times are in microseconds

    @Test
    void hopsSplitAnOrdersTimeIntoClaimStepRoundTripsAndTheEnd() {
        PhaseData d = new PhaseData();
        d.add("o-1", 0, null, null, "Pending");
        d.add("o-1", 4 * MS, null, "Pending", "Processing");
        d.add("o-1", 4 * MS, "reserve", "NotStarted", "Running");
        d.add("o-1", 20 * MS, "reserve", "Running", "Completed");
        d.add("o-1", 20 * MS, "charge", "NotStarted", "Running");
        d.add("o-1", 50 * MS, "charge", "Running", "Completed");
        d.add("o-1", 51 * MS, null, "Processing", "Processed");

        PhaseData.Hops hops = d.hops();

        assertEquals(List.of(4.0), hops.submittedToClaimed());
        assertEquals(List.of(16.0, 30.0), hops.stepRoundTrips());
        assertEquals(List.of(1.0), hops.lastReplyToProcessed());
    }

    @Test
    void unfinishedOrdersAndStepsThatRanTwiceAreLeftOut() {
        PhaseData d = new PhaseData();
        d.add("o-running", 0, null, null, "Pending");
        d.add("o-running", 1 * MS, null, "Pending", "Processing");
        d.add("o-running", 1 * MS, "reserve", "NotStarted", "Running");
        d.add("o-retried", 0, null, null, "Pending");
        d.add("o-retried", 1 * MS, null, "Pending", "Processing");
        d.add("o-retried", 1 * MS, "reserve", "NotStarted", "Running");
        d.add("o-retried", 9 * MS, "reserve", "Running", "NotStarted");
        d.add("o-retried", 12 * MS, "reserve", "NotStarted", "Running"); // its retry
        d.add("o-retried", 30 * MS, "reserve", "Running", "Completed");
        d.add("o-retried", 31 * MS, null, "Processing", "Processed");

        assertEquals(PhaseData.Hops.NONE, d.hops());
    }
}
