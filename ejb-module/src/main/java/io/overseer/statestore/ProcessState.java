package io.overseer.statestore;

/**
 * The task-level states of the pattern's state record. Stored by name in {@code order_state.process_state},
 * whose CHECK constraint lists every value: a new value needs a migration that widens it (ejb-module's
 * database tests fail while the two disagree).
 */
public enum ProcessState {
    /** Created, or reset by the supervisor: waiting for a scheduler to claim its next step. */
    Pending,
    /** A step is running, claimed by the scheduler instance named in LockedBy, to finish by CompleteBy. */
    Processing,
    /** Every step completed. Final. */
    Processed,
    /** A step failed for good: the completed steps are being undone, newest first. */
    Compensating,
    /** Failed, and every completed step was undone. Final. */
    Compensated,
    /** Needs an operator: a step gave up with "error", or a compensation failed. An alert was raised. */
    Error;

    public boolean isFinal() {
        return this == Processed || this == Compensated || this == Error;
    }

    /**
     * Final for good: no transition leaves it (Processed, Compensated; not Error, which an operator may
     * resubmit or cancel). A settled order's listing columns never change again, which is what lets its
     * attribute rows keep a copy of them (V21, {@link StateStore#saveHistory}).
     */
    public boolean isSettled() {
        return java.util.Arrays.stream(values()).noneMatch(this::leadsTo);
    }

    /**
     * The task's transitions, as the state machine ({@link OrderState}) makes them: forward and back to
     * waiting while steps run; into undoing when a step gives up or an operator cancels; into Error when a
     * step or a compensation gives up for good; out of Error only by an operator's resubmit or cancel.
     */
    public boolean leadsTo(ProcessState to) {
        return switch (this) {
            case Pending -> to == Processing || to == Compensating;
            case Processing -> to == Processed || to == Pending || to == Compensating || to == Error;
            case Compensating -> to == Compensated || to == Error;
            case Error -> to == Pending || to == Compensating;
            case Processed, Compensated -> false;
        };
    }
}
