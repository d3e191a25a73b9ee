package io.overseer.admin;

/**
 * What a bulk job does to each of its targets. Resubmit and cancel act on orders, as an operator's
 * action on one order does ({@link OperatorActions}); release lets an order parked on a paused operation
 * through that pause (its next attempt of it; the pause holds the others); redrive sends dead letters
 * back to their original queue ({@link io.overseer.messaging.BrokerQueues#redrive}).
 */
public enum BulkAction {
    resubmit, cancel, release, redrive;

    /** Whether the targets are orders (else dead letters, by the broker's message id). */
    public boolean onOrders() {
        return this != redrive;
    }

    /** The action's name in the audit log. */
    String audited() {
        return "bulk-" + name();
    }

    /** The action, or null if {@code name} names none. */
    public static BulkAction named(String name) {
        for (BulkAction action : values()) {
            if (action.name().equals(name)) {
                return action;
            }
        }
        return null;
    }
}
