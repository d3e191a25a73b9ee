package io.overseer.query;

import io.overseer.platform.NativeParameters;
import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StateStore;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import static io.overseer.platform.Database.utc;

/**
 * Read side for the API: snapshots of orders, without locks, shaped as the API's JSON. The listing runs
 * its own SQL here rather than in {@link StateStore}: a lock-free read whose rows are {@link OrderSummary}
 * views, a type the state store does not know (see package-info).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class OrderQueries {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
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

    /**
     * Up to {@code limit} orders after the position ({@code afterCreatedAt}, {@code afterOrderId}) in the
     * order (created_at, order_id) — a total, stable order, so keyset pages neither skip nor repeat an
     * order, and orders created meanwhile appear at the end. Null position: from the start; null state:
     * any state. Reads the listing indexes of V4.
     */
    public List<OrderSummary> list(ProcessState state, OffsetDateTime afterCreatedAt, String afterOrderId, int limit) {
        return list(state, null, null, afterCreatedAt, afterOrderId, limit);
    }

    /**
     * As {@link #list(ProcessState, OffsetDateTime, String, int)}, of the orders whose business attribute
     * {@code attributeName} is {@code attributeValue} (null name: any order): one range of V20's
     * order_attribute_listing, in the listing's order, whatever the value's share of the orders
     * ({@link ListingSql#attribute}).
     */
    @SuppressWarnings("unchecked")
    public List<OrderSummary> list(ProcessState state, String attributeName, String attributeValue,
                                   OffsetDateTime afterCreatedAt, String afterOrderId, int limit) {
        ListingSql listing = ListingSql.of(ListingSql.SUMMARY_COLUMNS).attribute(attributeName, attributeValue)
                .state(state == null ? null : state.name()).after(afterCreatedAt, afterOrderId).limit(limit);
        var query = NativeParameters.bind(em.createNativeQuery(listing.sql()), 1, listing.parameters());
        List<Object[]> rows = query.getResultList();
        return rows.stream().map(row -> new OrderSummary((String) row[0], (String) row[1], (String) row[2],
                ProcessState.valueOf((String) row[3]), row[6] == null ? null : utc(row[6]), utc(row[4]), utc(row[5]))).toList();
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
