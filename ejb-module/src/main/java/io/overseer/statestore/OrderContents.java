package io.overseer.statestore;

import io.overseer.platform.NativeParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the agents need of the orders the scheduler starts: their customer and lines, read without a lock,
 * and kept in memory while the orders run.
 *
 * <p>Every step's request carries them, so without the memory each reply that starts a next step read them
 * again: one statement per step, for values that never change. No transaction changes an order's customer
 * and lines after its submission's, so what was read once (committed: read-committed) or admitted (handed in
 * {@link #remember} after its commit) is kept: up to {@link #KEPT} orders, the oldest dropped first, each
 * dropped when its order ends here ({@link #forget}). A miss is only a read, so any instance of a cluster
 * may apply any reply, and a restart loses nothing.
 */
@ApplicationScoped
public class OrderContents {

    /** Orders whose contents are kept: a burst's backlog at a few hundred bytes each, a few MiB at most. */
    static final int KEPT = 10_000;

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    private final Map<String, OrderContent> kept = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, OrderContent> eldest) {
            return size() > KEPT;
        }
    });

    /** Contents whose submission has committed: the next steps' requests need not read them. */
    public void remember(Collection<OrderContent> committed) {
        committed.forEach(content -> kept.put(content.orderId(), content));
    }

    /** The order ended: no request of it needs its contents again (a miss would only read them). */
    public void forget(String orderId) {
        kept.remove(orderId);
    }

    /** The customer and lines of the given orders: those kept, and the rest in one query (then kept). */
    public Map<String, OrderContent> of(Collection<String> orderIds) {
        Map<String, OrderContent> contents = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        for (String orderId : orderIds) {
            OrderContent known = kept.get(orderId);
            if (known == null) {
                unknown.add(orderId);
            } else {
                contents.put(orderId, known);
            }
        }
        Map<String, OrderContent> read = read(unknown);
        remember(read.values());
        contents.putAll(read);
        return contents;
    }

    /**
     * The customer and lines of the given orders, in one query, as plain values. Deliberately not a
     * {@code JOIN FETCH} of {@link CustomerOrder#lines()}: EclipseLink then registers the
     * {@link OrderLine} embeddables in the unit of work as if they were entities, and without weaving
     * (WildFly) the commit fails with EclipseLink-69 on them (eclipse-ee4j/eclipselink#1455).
     *
     * <p>Read without flushing the transaction's changes first ({@link FlushModeType#COMMIT}): the scheduler
     * reads contents after it moved the batch's records, and in the default mode that read wrote every
     * moved record there and then (JFR: one in nine of the server's samples under a burst, the batch's
     * updates sent apart from its inserts). No transaction changes what this reads: an order's customer
     * and lines are written once, by its submission's own transaction, which has committed before any
     * scheduler can claim it.
     */
    @SuppressWarnings("unchecked")
    private Map<String, OrderContent> read(Collection<String> orderIds) {
        if (orderIds.isEmpty()) {
            return Map.of();
        }
        var query = em.createNativeQuery("SELECT o.order_id, o.customer_id, l.sku, l.quantity FROM customer_order o"
                + " LEFT JOIN order_line l ON l.order_id = o.order_id WHERE o.order_id IN ("
                + NativeParameters.placeholders(1, orderIds.size()) + ") ORDER BY o.order_id, l.line_no");
        query.setFlushMode(FlushModeType.COMMIT);
        NativeParameters.bind(query, 1, orderIds);
        Map<String, String> customers = new LinkedHashMap<>();
        Map<String, List<OrderLine>> lines = new HashMap<>();
        for (Object[] row : (List<Object[]>) query.getResultList()) {
            String orderId = (String) row[0];
            customers.put(orderId, (String) row[1]);
            List<OrderLine> orderLines = lines.computeIfAbsent(orderId, id -> new ArrayList<>());
            if (row[2] != null) {
                orderLines.add(new OrderLine((String) row[2], ((Number) row[3]).intValue()));
            }
        }
        Map<String, OrderContent> contents = new LinkedHashMap<>();
        customers.forEach((orderId, customer) -> contents.put(orderId, new OrderContent(orderId, customer, lines.get(orderId))));
        return contents;
    }
}
