package io.overseer.statestore;

import java.util.List;

/**
 * What an agent request carries of an order: its customer and lines, read as plain values. Not an entity
 * and not managed: the claim path reads it in bulk and only passes it on.
 */
public record OrderContent(String orderId, String customerId, List<OrderLine> lines) {

    public OrderContent {
        lines = List.copyOf(lines);
    }
}
