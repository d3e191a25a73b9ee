package io.overseer.query;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The keyset listing's SQL, for {@link OrderQueries#list} (GET /api/orders) and the console's listing
 * (io.overseer.admin.AdminQueries): order_state with its order, in the total order (created_at, order_id),
 * after a position, filtered. The text depends only on which filters are set, never on the order of the
 * calls, and its parameters are numbered ?1, ?2… in the order they appear. Free of container types and
 * public so that the benchmark's scale probe (io.overseer.bench.scale.ScaleProbe) runs the very text the
 * product runs.
 */
public final class ListingSql {

    /** What {@link OrderSummary} is made of. */
    public static final String SUMMARY_COLUMNS = "s.order_id, o.customer_id, s.workflow, s.process_state,"
            + " s.created_at, s.updated_at, s.not_before";
    /** What the console's line (AdminQueries.Line) is made of. */
    public static final String CONSOLE_COLUMNS = "s.order_id, o.customer_id, s.workflow, s.process_state,"
            + " s.failure_count, s.last_error, s.paused_on, s.created_at, s.updated_at";

    private final String columns;
    private String attributeName;
    private String attributeValue;
    private String state;
    private String workflow;
    private String customerId;
    private Integer minFailures;
    private OffsetDateTime createdAtMost;
    private OffsetDateTime afterCreatedAt;
    private String afterOrderId;
    private int limit = 50;

    private ListingSql(String columns) {
        this.columns = columns;
    }

    public static ListingSql of(String columns) {
        return new ListingSql(columns);
    }

    /**
     * States whose orders stay few however many finish: an order leaves them, or an operator empties them.
     * With one of them and an attribute, the page walks the state's orders in order
     * (order_state_listing_by_state) and reads each one's attribute by its key, a subquery the planner cannot
     * turn round: joined, the attribute's whole share was read on a reused prepared statement (PostgreSQL's
     * generic plan, which cannot tell Error from Processed: 0.6–0.9 s at 1 M orders, BENCHMARKS.md).
     */
    static final Set<String> FEW = Set.of("Pending", "Processing", "Compensating", "Error");

    /**
     * Orders carrying the business attribute {@code name} = {@code value} (null name: no filter), read in
     * the listing's order from V20's order_attribute_listing: one page of the matches, however common the
     * value; with a state of {@link #FEW}, from that state's orders instead.
     */
    public ListingSql attribute(String name, String value) {
        this.attributeName = name;
        this.attributeValue = value;
        return this;
    }

    /** A ProcessState's name; null: any state. */
    public ListingSql state(String processState) {
        this.state = processState;
        return this;
    }

    public ListingSql workflow(String name) {
        this.workflow = name;
        return this;
    }

    public ListingSql customer(String id) {
        this.customerId = id;
        return this;
    }

    public ListingSql minFailures(Integer failures) {
        this.minFailures = failures;
        return this;
    }

    /** Created at or before {@code at}; null: any. */
    public ListingSql createdAtMost(OffsetDateTime at) {
        this.createdAtMost = at;
        return this;
    }

    /** The keyset position: rows strictly after (createdAt, orderId); null createdAt: from the start. */
    public ListingSql after(OffsetDateTime createdAt, String orderId) {
        this.afterCreatedAt = createdAt;
        this.afterOrderId = orderId;
        return this;
    }

    public ListingSql limit(int rows) {
        this.limit = rows;
        return this;
    }

    public String sql() {
        return build(new ArrayList<>());
    }

    /** The values of ?1, ?2…, in order. */
    public List<Object> parameters() {
        List<Object> parameters = new ArrayList<>();
        build(parameters);
        return parameters;
    }

    /**
     * The filters alone, from {@code " FROM order_state s"} to the last condition (no position, order or
     * limit): what selects every matching order, e.g. to count them. Its parameters:
     * {@link #matchingParameters()}.
     */
    public String matchingSql() {
        return matching(new StringBuilder(), new ArrayList<>()).toString();
    }

    /** The values of {@link #matchingSql()}'s ?1, ?2…: the first of {@link #parameters()}. */
    public List<Object> matchingParameters() {
        List<Object> parameters = new ArrayList<>();
        matching(new StringBuilder(), parameters);
        return parameters;
    }

    private StringBuilder matching(StringBuilder sql, List<Object> parameters) {
        sql.append(" FROM order_state s JOIN customer_order o ON o.order_id = s.order_id");
        if (joinsAttribute()) {
            sql.append(" JOIN order_attribute a ON a.order_id = s.order_id AND a.name = ")
                    .append(bind(parameters, attributeName)).append(" AND a.value = ").append(bind(parameters, attributeValue));
        }
        sql.append(" WHERE TRUE");
        condition(sql, parameters, "s.process_state = ", state);
        if (attributeName != null && !joinsAttribute()) {
            sql.append(" AND (SELECT a.value FROM order_attribute a WHERE a.order_id = s.order_id AND a.name = ")
                    .append(bind(parameters, attributeName)).append(") = ").append(bind(parameters, attributeValue));
        }
        condition(sql, parameters, "s.workflow = ", workflow);
        condition(sql, parameters, "o.customer_id = ", customerId);
        condition(sql, parameters, "s.failure_count >= ", minFailures);
        condition(sql, parameters, "s.created_at <= ", createdAtMost);
        return sql;
    }

    private String build(List<Object> parameters) {
        StringBuilder sql = matching(new StringBuilder("SELECT ").append(columns), parameters);
        // With an attribute, its row's copy of (created_at, order_id) orders and pages: V20's index holds the
        // attribute's orders in that order, so a page is one index range. The same values as the order's own.
        String position = joinsAttribute() ? "a" : "s";
        if (afterCreatedAt != null) {
            sql.append(" AND (").append(position).append(".created_at, ").append(position).append(".order_id) > (")
                    .append(bind(parameters, afterCreatedAt)).append(", ").append(bind(parameters, afterOrderId)).append(')');
        }
        return sql.append(" ORDER BY ").append(position).append(".created_at, ").append(position).append(".order_id LIMIT ")
                .append(bind(parameters, limit)).toString();
    }

    /** Whether the attribute drives the page (its index, in order), not the state's orders. */
    private boolean joinsAttribute() {
        return attributeName != null && (state == null || !FEW.contains(state));
    }

    private static void condition(StringBuilder sql, List<Object> parameters, String test, Object value) {
        if (value != null) {
            sql.append(" AND ").append(test).append(bind(parameters, value));
        }
    }

    private static String bind(List<Object> parameters, Object value) {
        parameters.add(value);
        return "?" + parameters.size();
    }
}
