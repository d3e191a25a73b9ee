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
}
