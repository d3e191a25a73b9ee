package io.overseer.statestore;

/**
 * A state record was asked for a transition its current state does not allow. Callers check the state
 * under a lock before asking, so this signals a bug or a race the caller did not guard against.
 */
public class IllegalTransitionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public IllegalTransitionException(String orderId, Object from, String transition) {
        super("Order " + orderId + ": cannot " + transition + " from " + from);
    }
}
