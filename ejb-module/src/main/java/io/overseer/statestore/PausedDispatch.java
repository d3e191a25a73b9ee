package io.overseer.statestore;

import java.util.Set;

/**
 * What operators have paused, as a scheduler reads it in its transaction: operation names, or
 * {@value #ALL} for everything. A paused attempt is not started; its order is parked instead (see
 * {@link OrderState#claim(String, java.time.OffsetDateTime, io.overseer.workflow.WorkflowDefinition, Actor,
 * String, PausedDispatch)}).
 */
public record PausedDispatch(Set<String> scopes) {

    /** The scope that pauses every operation. */
    public static final String ALL = "all";
    public static final PausedDispatch NONE = new PausedDispatch(Set.of());

    public PausedDispatch {
        scopes = Set.copyOf(scopes);
    }

    /** Whether an attempt calling {@code operation} must wait. */
    public boolean holds(String operation) {
        return !scopes.isEmpty() && (scopes.contains(ALL) || scopes.contains(operation));
    }
}
