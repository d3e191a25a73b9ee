package io.overseer.notification;

import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StepStatus;
import java.util.Optional;

/**
 * The transitions a submitter is told about. Others (claims, steps started, retries after an expiry)
 * are the system's business and stay in the history.
 */
public enum StatusEvent {
    /** The order was accepted and stored (Pending). */
    RECEIVED("received"),
    /** A step's effect was applied. */
    STEP_COMPLETED("step-completed"),
    /** Every step completed. Final. */
    PROCESSED("processed"),
    /** A step failed for good: the completed steps are being undone. */
    COMPENSATING("compensating"),
    /** One completed step was undone. */
    STEP_COMPENSATED("step-compensated"),
    /** Failed, and every completed step undone. Final. */
    COMPENSATED("compensated"),
    /** Stopped in Error: an operator is needed. */
    FAILED("failed"),
    /** An operator ran an order in Error again. */
    RESUBMITTED("resubmitted");

    private final String wireName;

    StatusEvent(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The event a transition is, if a submitter is told about it. */
    public static Optional<StatusEvent> of(HistoryEntry entry) {
        String to = entry.toState();
        if (entry.stepName() != null) {
            if (StepStatus.Completed.name().equals(to)) {
                return Optional.of(STEP_COMPLETED);
            }
            return StepStatus.Compensated.name().equals(to) ? Optional.of(STEP_COMPENSATED) : Optional.empty();
        }
        if (ProcessState.Error.name().equals(entry.fromState())) {
            return Optional.of(RESUBMITTED);
        }
        if (to.equals(entry.fromState())) {
            return Optional.empty(); // the task stays where it is (parked on a paused operation): nothing to tell
        }
        return switch (ProcessState.valueOf(to)) {
            case Pending -> entry.fromState() == null ? Optional.of(RECEIVED) : Optional.empty();
            case Processed -> Optional.of(PROCESSED);
            case Compensating -> Optional.of(COMPENSATING);
            case Compensated -> Optional.of(COMPENSATED);
            case Error -> Optional.of(FAILED);
            case Processing -> Optional.empty();
        };
    }
}
