package io.overseer.statestore;

/** Who caused a transition: which part of the system (or which operator), and which instance or user. */
public record Actor(Kind kind, String name) {

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
