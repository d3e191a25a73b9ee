package io.overseer.workflow;

import java.time.Duration;
import java.util.Optional;

/**
 * One step of a workflow: the remote operation its agent performs, how long an attempt may take, what
 * the supervisor does when attempts expire, and the operation that undoes it (or none).
 *
 * @param maxRetries     expiries retried before the step is given up
 * @param backoffInitial wait before the first retry; null retries at once
 * @param backoffCap     longest wait between retries
 * @param onExhausted    what giving up means: undo the completed steps, or stop in Error for an operator
 * @param heartbeat      null, or how long an attempt may go without its agent reporting that it is alive
 *                       ({@code io.overseer.agent.AttemptHeartbeats}); shorter than {@code completeBy}. A missed
 *                       heartbeat is handled as a passed complete-by, so a dead agent is noticed early.
 * @param event          null, or the name of the external event this step waits for instead of calling a
 *                       remote operation (then {@code operation} is null): the step completes when the
 *                       event is delivered (REST or the order queue) before its complete-by, and its
 *                       complete-by passing applies {@code onExhausted} at once (no retries: a wait
 *                       cannot be tried again).
 * @param group          null, or the name of the parallel group this step belongs to: the consecutive steps of
 *                       one group run at once, each with its own attempts, deadline and retries, and the
 *                       step after the group starts when all of them have completed.
 */
public record StepDefinition(
        String name,
        String operation,
        String compensation,
        Duration completeBy,
        int maxRetries,
        Duration backoffInitial,
        Duration backoffCap,
        OnExhausted onExhausted,
        Duration heartbeat,
        String event,
        String group) {

    /** A step outside any parallel group. */
    public StepDefinition(String name, String operation, String compensation, Duration completeBy, int maxRetries,
                          Duration backoffInitial, Duration backoffCap, OnExhausted onExhausted, Duration heartbeat,
                          String event) {
        this(name, operation, compensation, completeBy, maxRetries, backoffInitial, backoffCap, onExhausted, heartbeat,
                event, null);
    }

    /** This step as a branch of the parallel group {@code group}. */
    public StepDefinition inGroup(String group) {
        return new StepDefinition(name, operation, compensation, completeBy, maxRetries, backoffInitial, backoffCap,
                onExhausted, heartbeat, event, group);
    }

    /** A step that calls its operation, without a heartbeat. */
    public StepDefinition(String name, String operation, String compensation, Duration completeBy, int maxRetries,
                          Duration backoffInitial, Duration backoffCap, OnExhausted onExhausted) {
        this(name, operation, compensation, completeBy, maxRetries, backoffInitial, backoffCap, onExhausted, null, null);
    }

    /** A step that calls its operation. */
    public StepDefinition(String name, String operation, String compensation, Duration completeBy, int maxRetries,
                          Duration backoffInitial, Duration backoffCap, OnExhausted onExhausted, Duration heartbeat) {
        this(name, operation, compensation, completeBy, maxRetries, backoffInitial, backoffCap, onExhausted, heartbeat,
                null);
    }

    /** A step that waits for the named external event (see {@code event} above). */
    public static StepDefinition awaiting(String name, String event, Duration completeBy, OnExhausted onExhausted) {
        return new StepDefinition(name, null, null, completeBy, 0, null, null, onExhausted, null, event);
    }

    /** Whether this step waits for an external event instead of calling a remote operation. */
    public boolean awaitsEvent() {
        return event != null;
    }

    public enum OnExhausted {
        COMPENSATE,
        ERROR
    }

    public Optional<String> compensationOperation() {
        return Optional.ofNullable(compensation);
    }

    /** How long to wait before retry number {@code failures} (1 for the first), doubling up to the cap. */
    public Duration retryDelay(int failures) {
        if (backoffInitial == null) {
            return Duration.ZERO;
        }
        Duration delay = backoffInitial;
        for (int i = 1; i < failures && delay.compareTo(backoffCap) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(backoffCap) > 0 ? backoffCap : delay;
    }
}
