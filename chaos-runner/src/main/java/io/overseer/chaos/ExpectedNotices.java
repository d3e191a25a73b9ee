package io.overseer.chaos;

import io.overseer.chaos.History.Transition;
import java.util.ArrayList;
import java.util.List;

/**
 * The status notifications a submitter must receive for an order, given its history: the contract of
 * StatusEvent (ejb-module), written down again here so that the check does not trust the code it checks.
 * Claims, step starts and retries are not told; every other transition is, once.
 */
final class ExpectedNotices {

    private ExpectedNotices() {
    }

    /** "event" or "event step", one per transition a submitter is told about, in history order. */
    static List<String> of(List<Transition> history) {
        List<String> expected = new ArrayList<>();
        for (Transition t : history) {
            String event = event(t);
            if (event != null) {
                expected.add(label(event, t.step()));
            }
        }
        return expected;
    }

    static String label(String event, String step) {
        return step == null ? event : event + " " + step;
    }

    private static String event(Transition t) {
        if (t.step() != null) {
            return switch (t.to()) {
                case "Completed" -> "step-completed";
                case "Compensated" -> "step-compensated";
                default -> null;
            };
        }
        if ("Error".equals(t.from())) {
            return "resubmitted";
        }
        return switch (t.to()) {
            case "Pending" -> t.from() == null ? "received" : null;
            case "Processed" -> "processed";
            case "Compensating" -> "compensating";
            case "Compensated" -> "compensated";
            case "Error" -> "failed";
            default -> null;
        };
    }
}
