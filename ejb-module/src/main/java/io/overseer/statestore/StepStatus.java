package io.overseer.statestore;

/**
 * The states of one step of a task. Stored by name in {@code step_state.state}, whose CHECK constraint lists
 * every value: a new value needs a migration that widens it (ejb-module's database tests fail while the two
 * disagree).
 */
public enum StepStatus {
    NotStarted,
    Running,
    Completed,
    /** Refused for good by the remote service: its effect was not applied. */
    Failed,
    /** Given up after its attempts expired: its effect may or may not have been applied, so it is undone too. */
    TimedOut,
    Compensating,
    Compensated,
    CompensationFailed;

    /** Whether undoing the task must undo this step (if it has a compensating operation). */
    public boolean needsCompensation() {
        return this == Completed || this == TimedOut;
    }
}
