package io.overseer.statestore;

/** Who caused a transition: which part of the system (or which operator), and which instance or user. */
public record Actor(Kind kind, String name) {

    /** Stored by name in {@code order_history.actor}, whose CHECK constraint must list every value. */
    public enum Kind {
        submission,
        scheduler,
        agent,
        supervisor,
        operator
    }

    public static Actor of(Kind kind, String name) {
        return new Actor(kind, name);
    }
}
