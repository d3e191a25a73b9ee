package io.overseer.query;

import io.overseer.platform.NativeParameters;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The keyset listing's SQL, for {@link OrderQueries#list} (GET /api/orders) and the console's listing
 * (io.overseer.admin.AdminQueries): every order with its state, in the total order (created_at, order_id),
 * after a position, filtered. The text depends only on which filters are set, never on the order of the
 * calls, and its parameters are numbered ?1, ?2… in the order they appear. Free of container types and
 * public so that the benchmark's scale probe (io.overseer.bench.scale.ScaleProbe) runs the very text the
 * product runs.
 *
 * <p>Three shapes, each with a row alias {@code s} that has every listing column: without an attribute,
 * order_state {@code s} with its customer_order {@code o}; with an attribute and a state of {@link #FEW},
 * that state's orders {@code s}, each one's attribute row read by its key ({@code a}); with an attribute
 * otherwise, the attribute's rows {@code a} in the listing's order, each one's columns {@code s} read from
 * the row itself once its order has settled (V21: the copy that io.overseer.statestore.StateStore makes
 * when an order with attributes ends Processed or Compensated), from order_state while it has not.
 */
public final class ListingSql {

    /** What {@link OrderSummary} is made of, in this order (qualify them for a query of your own: {@link #qualified}). */
    public static final String SUMMARY_COLUMNS = "order_id, customer_id, workflow, process_state, created_at, updated_at,"
            + " not_before";
    /** What the console's line (AdminQueries.Line) is made of. */
    public static final String CONSOLE_COLUMNS = "order_id, customer_id, workflow, process_state, failure_count,"
            + " last_error, paused_on, created_at, updated_at";

    /**
     * The listing's row of one attribute row {@code a}: the row's own copy of its order's columns once the
     * order has settled (the copy's process_state is set), else its order's state row, looked up by key —
     * a one-time filter on the copy, so that a settled order never touches order_state (nor customer_order:
     * the customer is copied with every attribute row). Exactly one branch returns a row for an attribute
     * row whose order exists; its columns are every listing column, as {@code s}.
     */
    private static final String ROW_OF_ATTRIBUTE = " CROSS JOIN LATERAL (SELECT a.order_id, a.customer_id, a.workflow,"
            + " a.process_state, a.failure_count, a.last_error, a.paused_on, a.created_at, a.updated_at, a.not_before"
            + " WHERE a.process_state IS NOT NULL"
            + " UNION ALL SELECT s.order_id, a.customer_id, s.workflow, s.process_state, s.failure_count, s.last_error,"
            + " s.paused_on, s.created_at, s.updated_at, s.not_before FROM order_state s"
            + " WHERE a.process_state IS NULL AND s.order_id = a.order_id) s";

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
     * (order_state_listing_by_state) and reads each one's attribute by its key in a subquery the planner
     * cannot turn round: joined, the attribute's whole share was read on a reused prepared statement
     * (PostgreSQL's generic plan, which cannot tell Error from Processed: 0.6–0.9 s at 1 M orders,
     * BENCHMARKS.md). The key is V21's order_attribute_unsettled, which holds only the attribute rows of
     * orders not settled — the only ones such a state has — so each lookup reads the same few pages
     * however many orders have finished.
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
     * The filters alone, from {@code " FROM "} to the last condition (no position, order or limit): what
     * selects every matching order, each as a row {@code s} with every listing column (e.g. s.order_id,
     * s.created_at), e.g. to count them. Its parameters: {@link #matchingParameters()}.
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

    /**
     * {@code columns} (of {@link #SUMMARY_COLUMNS}, {@link #CONSOLE_COLUMNS}) as the columns of
     * {@code order_state s JOIN customer_order o}, for a query of one's own over those two tables.
     */
    public static String qualified(String columns) {
        return qualified(columns, "o");
    }

    /** Each column of {@code s}, but the customer's, which is {@code customerAlias}'s. */
    private static String qualified(String columns, String customerAlias) {
        StringBuilder sql = new StringBuilder();
        for (String column : columns.split(",")) {
            String name = column.trim();
            sql.append(sql.length() == 0 ? "" : ", ").append(name.equals("customer_id") ? customerAlias : "s")
                    .append('.').append(name);
        }
        return sql.toString();
    }

    private StringBuilder matching(StringBuilder sql, List<Object> parameters) {
        if (attributeName == null) {
            sql.append(" FROM order_state s JOIN customer_order o ON o.order_id = s.order_id WHERE TRUE");
            condition(sql, parameters, "s.process_state = ", state);
        } else if (joinsAttribute()) {
            sql.append(" FROM order_attribute a").append(ROW_OF_ATTRIBUTE)
                    .append(" WHERE a.name = ").append(NativeParameters.add(parameters, attributeName))
                    .append(" AND a.value = ").append(NativeParameters.add(parameters, attributeValue));
            condition(sql, parameters, "s.process_state = ", state);
        } else {
            // OFFSET 0 keeps the subquery a lookup per order of the state (see FEW); its condition on the copy
            // is the predicate of order_attribute_unsettled, and holds for every order of such a state
            sql.append(" FROM order_state s JOIN LATERAL (SELECT a.value, a.customer_id FROM order_attribute a")
                    .append(" WHERE a.order_id = s.order_id AND a.name = ").append(NativeParameters.add(parameters, attributeName))
                    .append(" AND a.process_state IS NULL OFFSET 0) a ON a.value = ").append(NativeParameters.add(parameters, attributeValue))
                    .append(" WHERE s.process_state = ").append(NativeParameters.add(parameters, state));
        }
        condition(sql, parameters, "s.workflow = ", workflow);
        condition(sql, parameters, customer() + ".customer_id = ", customerId);
        condition(sql, parameters, "s.failure_count >= ", minFailures);
        condition(sql, parameters, position() + ".created_at <= ", createdAtMost);
        return sql;
    }

    private String build(List<Object> parameters) {
        String columnsOf = joinsAttribute() ? qualified(columns, "s") : qualified(columns, customer());
        StringBuilder sql = matching(new StringBuilder("SELECT ").append(columnsOf), parameters);
        // With an attribute driving the page, its row's copy of (created_at, order_id) orders and pages: V20's
        // index holds the attribute's orders in that order, so a page is one index range. The same values as
        // the order's own.
        String position = position();
        if (afterCreatedAt != null) {
            sql.append(" AND (").append(position).append(".created_at, ").append(position).append(".order_id) > (")
                    .append(NativeParameters.add(parameters, afterCreatedAt)).append(", ").append(NativeParameters.add(parameters, afterOrderId)).append(')');
        }
        return sql.append(" ORDER BY ").append(position).append(".created_at, ").append(position).append(".order_id LIMIT ")
                .append(NativeParameters.add(parameters, limit)).toString();
    }

    /** Where the page's position is read: the attribute's row when it drives the page, else the order's state row. */
    private String position() {
        return joinsAttribute() ? "a" : "s";
    }

    /** Where the customer is read: customer_order without an attribute, else the attribute's row (V21's copy). */
    private String customer() {
        return attributeName == null ? "o" : "a";
    }

    /** Whether the attribute drives the page (its index, in order), not the state's orders. */
    private boolean joinsAttribute() {
        return attributeName != null && (state == null || !FEW.contains(state));
    }

    private static void condition(StringBuilder sql, List<Object> parameters, String test, Object value) {
        if (value != null) {
            sql.append(" AND ").append(test).append(NativeParameters.add(parameters, value));
        }
    }
}
