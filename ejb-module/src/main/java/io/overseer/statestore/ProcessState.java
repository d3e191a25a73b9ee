package io.overseer.statestore;

/** The task-level states of the pattern's state record. */
public enum ProcessState {
    /** Created, or reset by the supervisor: waiting for a scheduler to claim it. */
    Pending,
    /** Claimed by the scheduler instance named in LockedBy, to finish by CompleteBy. */
    Processing,
    /** Every step completed. Final. */
    Processed,
    /** Failed for good: a nontransient fault, or too many expired attempts. An operator was alerted. */
    Error;

    public boolean isFinal() {
        return this == Processed || this == Error;
    }
}
