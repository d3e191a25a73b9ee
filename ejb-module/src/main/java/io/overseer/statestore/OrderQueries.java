package io.overseer.statestore;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/** Read side for the API: snapshots of orders, without locks. */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class OrderQueries {

    @Inject
    StateStore store;

    public Optional<OrderView> find(String orderId) {
        return store.order(orderId)
                .flatMap(order -> store.read(orderId).map(state -> OrderView.of(order, state)));
    }

    /** The order's transitions, oldest first; empty if there is no such order. */
    public Optional<List<HistoryView>> history(String orderId) {
        return store.order(orderId).map(order -> store.history(orderId).stream().map(HistoryView::of).toList());
    }
}
