package io.overseer.statestore;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
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
}
