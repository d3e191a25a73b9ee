package io.overseer.chaos;

import io.overseer.chaos.History.Transition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The legal moves of an order and of its steps, written down from the state machine's contract
 * (ProcessState, StepStatus and OrderState in ejb-module) rather than derived from its code: an order's
 * history must be a walk through these tables, each move starting where the previous one of the same
 * entity ended, with seq numbers 1, 2, 3, … and no gap. Anything else is a state that went backwards or a
 * transition that was lost.
 */
final class Transitions {

    private static final Map<String, Set<String>> TASK = Map.of(
            "Pending", Set.of("Processing", "Compensating"),
            "Processing", Set.of("Processed", "Pending", "Compensating", "Error"),
            "Compensating", Set.of("Compensated", "Error"),
            // Only an operator moves an order out of Error (resubmit, cancel); the runner never does, but it is legal.
            "Error", Set.of("Pending", "Compensating"),
            "Processed", Set.of(),
            "Compensated", Set.of());

    private static final Map<String, Set<String>> STEP = Map.of(
            "NotStarted", Set.of("Running", "TimedOut"),
            // Back to NotStarted: the attempt was handed back or expired and will be retried (not a regression).
            "Running", Set.of("Completed", "Failed", "TimedOut", "NotStarted"),
            "Completed", Set.of("Compensating"),
            "Failed", Set.of("NotStarted"),
            "TimedOut", Set.of("Compensating", "NotStarted"),
            // Compensating → Compensating: a compensation attempt that expired or was handed back, noted and retried.
            "Compensating", Set.of("Compensated", "CompensationFailed", "Compensating"),
            "CompensationFailed", Set.of("Compensating"),
            "Compensated", Set.of());

    static final Set<String> FINAL = Set.of("Processed", "Compensated", "Error");

    private Transitions() {
    }

    /** The problems of one order's history (empty when it is a legal walk). */
    static List<String> problems(String orderId, List<Transition> history) {
        List<String> problems = new ArrayList<>();
        Map<String, String> current = new HashMap<>(); // entity ("" for the task) → its state so far
        int expectedSeq = 1;
        for (Transition t : history) {
            if (t.seq() != expectedSeq) {
                problems.add(orderId + ": history seq " + t.seq() + " where " + expectedSeq + " was expected");
                expectedSeq = t.seq();
            }
            expectedSeq++;
            String entity = t.step() == null ? "" : t.step();
            String before = current.containsKey(entity) ? current.get(entity) : initial(t.step());
            if (!java.util.Objects.equals(before, t.from())) {
                problems.add(orderId + ": seq " + t.seq() + " " + name(t) + " moves from " + t.from()
                        + " but was " + before);
            } else if (!legal(t)) {
                problems.add(orderId + ": seq " + t.seq() + " " + name(t) + " " + t.from() + " → " + t.to()
                        + " is not a legal transition");
            }
            current.put(entity, t.to());
        }
        return problems;
    }

    /** Where an entity starts: an order before submission has no state; a step starts NotStarted. */
    private static String initial(String step) {
        return step == null ? null : "NotStarted";
    }

    private static boolean legal(Transition t) {
        if (t.step() == null && t.from() == null) {
            return "Pending".equals(t.to());
        }
        Map<String, Set<String>> table = t.step() == null ? TASK : STEP;
        return table.getOrDefault(t.from(), Set.of()).contains(t.to());
    }

    private static String name(Transition t) {
        return t.step() == null ? "order" : "step " + t.step();
    }
}
