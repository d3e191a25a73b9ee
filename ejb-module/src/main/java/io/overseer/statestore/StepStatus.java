package io.overseer.statestore;

/** The states of one step of a task. */
public enum StepStatus {
    NotStarted,
    Running,
    Completed,
    Failed
}
