package io.overseer.statestore;

import jakarta.ejb.ApplicationException;

/**
 * A state record was asked for a transition its current state does not allow: an operator's action on
 * an order in the wrong state (answered 409), or, from the pattern's own actors — which check the
 * state under the lock first — a bug. An application exception, so it reaches the caller as itself,
 * and the transaction rolls back.
 */
@ApplicationException(rollback = true)
public class IllegalTransitionException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public IllegalTransitionException(String orderId, Object from, String transition) {
        super("Order " + orderId + ": cannot " + transition + " from " + from);
    }
}
