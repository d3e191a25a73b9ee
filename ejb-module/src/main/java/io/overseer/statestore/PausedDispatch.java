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
public record PausedDispatch(Set<String> scopes, FlowLimiter limiter) {

    /** The scope that pauses every operation. */
    public static final String ALL = "all";
    public static final PausedDispatch NONE = new PausedDispatch(Set.of());

    public PausedDispatch {
        scopes = Set.copyOf(scopes);
    }

    public PausedDispatch(Set<String> scopes) {
        this(scopes, FlowLimiter.NONE);
    }

    /** The same pauses, with these flow limits. */
    public PausedDispatch limitedBy(FlowLimiter flowLimiter) {
        return new PausedDispatch(scopes, flowLimiter);
    }

    /** Whether an attempt calling {@code operation} must wait. */
    public boolean holds(String operation) {
        return !scopes.isEmpty() && (scopes.contains(ALL) || scopes.contains(operation));
    }

    /** See {@link FlowLimiter#admit}; an operation without a limit (or none: an event wait) is admitted. */
    OffsetDateTime admit(String operation, OffsetDateTime now) {
        return operation == null ? null : limiter.admit(operation, now);
    }

    boolean limits(String operation) {
        return operation != null && limiter.limits(operation);
    }
}
