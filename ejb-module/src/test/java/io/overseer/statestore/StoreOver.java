package io.overseer.statestore;

import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;

/** The product's state store over a test's entity manager, for database tests of the actors that use it. */
public final class StoreOver {

    private StoreOver() {
    }

    public static StateStore em(EntityManager em, Event<OrderTransitions> transitions) {
        StateStore store = new StateStore();
        store.em = em;
        store.transitions = transitions;
        return store;
    }

    /** {@code contents}, what it keeps in memory included, reading over this transaction's entity manager. */
    public static OrderContents contents(OrderContents contents, EntityManager em) {
        contents.em = em;
        return contents;
    }

    /** The orders' contents reader over the same entity manager. */
    public static OrderContents contents(EntityManager em) {
        OrderContents contents = new OrderContents();
        contents.em = em;
        return contents;
    }
}
