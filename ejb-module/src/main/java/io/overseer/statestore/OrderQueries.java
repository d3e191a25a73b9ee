package io.overseer.statestore;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Read side for the API: snapshots of orders, without locks. */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class OrderQueries {

    @Inject
    StateStore store;
    @Inject
    io.overseer.workflow.WorkflowRegistry workflows;

    public Optional<OrderView> find(String orderId) {
        return store.order(orderId)
                .flatMap(order -> store.read(orderId).map(state -> OrderView.of(order, state, definition(state))));
    }

    /**
     * The definition the order runs under, for its steps' groups and events; null if this deployment cannot
     * read it (a workflow removed with no version stored): the order is still shown, without them.
     */
    private io.overseer.workflow.WorkflowDefinition definition(OrderState state) {
        try {
            return workflows.get(state.workflow(), state.workflowVersion());
        } catch (io.overseer.workflow.WorkflowDefinitionException e) {
            return null;
        }
    }

    /** One page of the listing; see {@link StateStore#list}. */
    public List<OrderSummary> list(ProcessState state, OffsetDateTime afterCreatedAt, String afterOrderId, int limit) {
        return store.list(state, afterCreatedAt, afterOrderId, limit);
    }

    /** New transitions of the given orders, past {@code afterSeq}, grouped by order id, oldest first. */
    public Map<String, List<HistoryView>> historySince(Collection<String> orderIds, int afterSeq) {
        Map<String, List<HistoryView>> byOrder = new HashMap<>();
        for (HistoryEntry entry : store.historySince(orderIds, afterSeq)) {
            byOrder.computeIfAbsent(entry.orderId(), id -> new ArrayList<>()).add(HistoryView.of(entry));
        }
        return byOrder;
    }

    public boolean exists(String orderId) {
        return store.order(orderId).isPresent();
    }

    /** The order's transitions, oldest first; empty if there is no such order. */
    public Optional<List<HistoryView>> history(String orderId) {
        return store.order(orderId).map(order -> store.history(orderId).stream().map(HistoryView::of).toList());
    }
}
