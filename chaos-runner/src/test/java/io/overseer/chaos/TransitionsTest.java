package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.chaos.History.Transition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The legal-transition table on the walks the application makes, retries and compensations included. */
class TransitionsTest {

    @Test
    void aRetryAfterExpiryAndACompensationAreLegal() {
        List<Transition> h = new ArrayList<>();
        Histories.add(h, null, null, "Pending");
        Histories.add(h, null, "Pending", "Processing");
        Histories.add(h, "a", "NotStarted", "Running");
        Histories.add(h, "a", "Running", "NotStarted"); // expired: retried
        Histories.add(h, null, "Processing", "Pending");
        Histories.add(h, null, "Pending", "Processing");
        Histories.add(h, "a", "NotStarted", "Running");
        Histories.add(h, "a", "Running", "Completed");
        Histories.add(h, "b", "NotStarted", "Running");
        Histories.add(h, "b", "Running", "TimedOut");
        Histories.add(h, null, "Processing", "Compensating");
        Histories.add(h, "b", "TimedOut", "Compensating");
        Histories.add(h, "b", "Compensating", "Compensating"); // a compensation attempt expired, noted
        Histories.add(h, "b", "Compensating", "Compensated");
        Histories.add(h, "a", "Completed", "Compensating");
        Histories.add(h, "a", "Compensating", "Compensated");
        Histories.add(h, null, "Compensating", "Compensated");
        assertEquals(List.of(), Transitions.problems("o", h));
    }

    @Test
    void aStepThatMovesFromAStateItWasNotInIsReported() {
        List<Transition> h = new ArrayList<>();
        Histories.add(h, null, null, "Pending");
        Histories.add(h, null, "Pending", "Processing");
        Histories.add(h, "a", "Running", "Completed"); // never started
        List<String> problems = Transitions.problems("o", h);
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("was NotStarted"), problems.get(0));
    }

    @Test
    void aCompletedStepThatRunsAgainIsABackwardsMove() {
        List<Transition> h = new ArrayList<>(Histories.processedHistory().subList(0, 4));
        Histories.add(h, "reserve-inventory", "Completed", "Running");
        assertEquals(1, Transitions.problems("o", h).size());
    }
}
