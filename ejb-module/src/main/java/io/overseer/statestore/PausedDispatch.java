package io.overseer.statestore;

import java.time.OffsetDateTime;
import java.util.Set;

/**
 * What holds dispatch back, as a scheduler reads it in its transaction: what operators have paused
 * (operation names, or {@value #ALL} for everything), and the flow limits ({@link FlowLimiter}). A paused
 * attempt is not started; its order is parked instead (see {@link OrderState#claim(String,
 * java.time.OffsetDateTime, io.overseer.workflow.WorkflowDefinition, Actor, String, PausedDispatch)}). An
 * attempt over a flow limit waits, its order Pending (or Compensating with nobody on it) until the limiter's
 * instant.
 */
public record PausedDispatch(Set<String> scopes, FlowLimiter limiter, String exempt) {

    /** The scope that pauses every operation. */
    public static final String ALL = "all";
    public static final PausedDispatch NONE = new PausedDispatch(Set.of());

    public PausedDispatch {
        scopes = Set.copyOf(scopes);
    }

    public PausedDispatch(Set<String> scopes, FlowLimiter limiter) {
        this(scopes, limiter, null);
    }

    public PausedDispatch(Set<String> scopes) {
        this(scopes, FlowLimiter.NONE);
    }

    /** The same pauses, with these flow limits. */
    public PausedDispatch limitedBy(FlowLimiter flowLimiter) {
        return new PausedDispatch(scopes, flowLimiter, exempt);
    }

    /**
     * The same pauses, except for {@code operation} (null: none): for a record an operator let through the
     * pause of that operation ({@link OrderRecord#letThrough}).
     */
    PausedDispatch except(String operation) {
        return operation == null || scopes.isEmpty() ? this : new PausedDispatch(scopes, limiter, operation);
    }

    /** Whether an attempt calling {@code operation} must wait. */
    public boolean holds(String operation) {
        return !scopes.isEmpty() && !java.util.Objects.equals(operation, exempt)
                && (scopes.contains(ALL) || scopes.contains(operation));
    }

    /** See {@link FlowLimiter#admit}; an operation without a limit (or none: an event wait) is admitted. */
    OffsetDateTime admit(String operation, OffsetDateTime now) {
        return operation == null ? null : limiter.admit(operation, now);
    }

    boolean limits(String operation) {
        return operation != null && limiter.limits(operation);
    }
}
