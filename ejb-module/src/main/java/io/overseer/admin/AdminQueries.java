package io.overseer.admin;

import io.overseer.agent.AttemptRequest;
import io.overseer.platform.Clocks;
import io.overseer.platform.NativeParameters;
import io.overseer.query.HistoryView;
import io.overseer.query.ListingSql;
import io.overseer.query.OrderQueries;
import io.overseer.query.OrderView;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StepStatus;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import static io.overseer.platform.Database.utc;

/**
 * What the console reads from the state store: the overview's counts and per-minute figures, the
 * filtered order listing, one order with its history and remote calls (the cluster's instances are
 * {@link ClusterQueries}'). Reads only,
 * each in its own short transaction; none takes a row lock, so the console never slows a scheduler.
 *
 * <p>Long because it is one native query per console page, each next to the record it fills; splitting them
 * would only spread the console's read model.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class AdminQueries {

    /**
     * The listing's filters; null means "any". {@code olderThan}: created at least that long ago;
     * {@code attributeName} and {@code attributeValue}: a business attribute the order carries (both or neither).
     */
    public record Filter(ProcessState state, String workflow, String customerId, Integer minFailures,
                         Duration olderThan, String attributeName, String attributeValue) {

        /** Whether it restricts anything: a filter that does not matches every order. */
        public boolean restricts() {
            return state != null || workflow != null || customerId != null || minFailures != null || olderThan != null
                    || attributeName != null;
        }
    }

    /** One line of the console's listing. */
    @JsonbNillable
    @JsonbPropertyOrder({"orderId", "customerId", "workflow", "processState", "failureCount", "lastError", "pausedOn",
            "createdAt", "updatedAt"})
    public record Line(String orderId, String customerId, String workflow, ProcessState processState,
                       int failureCount, String lastError, String pausedOn, OffsetDateTime createdAt,
                       OffsetDateTime updatedAt) {
    }

    /** Finished orders in one minute: Processed, and failed (Compensated or Error). */
    @JsonbPropertyOrder({"minute", "processed", "failed"})
    public record Minute(OffsetDateTime minute, long processed, long failed) {
    }

    /** The order that has waited longest for a scheduler or an agent. */
    @JsonbPropertyOrder({"orderId", "processState", "createdAt", "waitingSeconds"})
    public record Waiting(String orderId, ProcessState processState, OffsetDateTime createdAt, long waitingSeconds) {
    }

    /** An order in Error: it needs an operator. */
    public record InError(String orderId, String lastError, OffsetDateTime since) {
    }

    /** One remote call the order's steps made, as its history tells it. */
    @JsonbNillable
    @JsonbPropertyOrder({"step", "operation", "compensation", "idempotencyKey", "at", "result", "detail"})
    public record Call(String step, String operation, boolean compensation, String idempotencyKey, OffsetDateTime at,
                       String result, String detail) {
    }

    /** What an operator may do to the order now. */
    public record Actions(boolean resubmit, boolean cancel) {
    }

    @JsonbPropertyOrder({"order", "history", "calls", "actions"})
    public record Detail(OrderView order, List<HistoryView> history, List<Call> calls, Actions actions) {
    }

    @JsonbNillable
    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    io.overseer.agent.FlowLimits flowLimitSettings;
    @Inject
    io.overseer.statestore.StateStore store;
    @Inject
    io.overseer.statestore.FlowWindows flowWindows;
    @Inject
    OrderQueries orders;
    @Inject
    WorkflowRegistry workflows;
    @Inject
    Clocks clocks;
    @Inject
    FinishedTally finished;

    /**
     * Orders by state, every state present (zero when none). Costs the same however many orders are
     * finished: the live states (and Error, which an operator empties) are counted through the index
     * order_state_listing_by_state, which reads only their entries; Processed and Compensated come from
     * {@link FinishedTally}. The console polls this every 2 s and the meters every 15 s.
     */
    @SuppressWarnings("unchecked")
    public Map<ProcessState, Long> counts() {
        Map<ProcessState, Long> counts = new EnumMap<>(ProcessState.class);
        for (ProcessState state : ProcessState.values()) {
            counts.put(state, 0L);
        }
        List<Object[]> rows = em.createNativeQuery(LIVE_COUNTS_SQL).getResultList();
        rows.forEach(row -> counts.put(ProcessState.valueOf((String) row[0]), ((Number) row[1]).longValue()));
        counts.putAll(finished.counts(em, clocks.now()));
        return counts;
    }

    /** {@link #counts}'s live states; package-private so that the database tests run the very text. */
    static final String LIVE_COUNTS_SQL = "SELECT process_state, count(*) FROM order_state"
            + " WHERE process_state IN ('Pending', 'Processing', 'Compensating', 'Error') GROUP BY process_state";

    /** How many orders are parked on a paused operation. Reads the partial index order_state_paused (V10). */
    /** A flow limit and its use now: attempts running, and orders waiting for a slot (cluster-wide). */
    @JsonbPropertyOrder({"operation", "inFlightLimit", "perSecondLimit", "running", "waiting"})
    public record FlowUse(String operation, Integer inFlightLimit, Integer perSecondLimit, long running, long waiting) {
    }

    /** Each configured flow limit with its use now; two counts per limit, on partial indexes. */
    public List<FlowUse> flowLimits() {
        return flowLimitSettings.all().stream().map(limit -> new FlowUse(limit.operation(), limit.inFlight(),
                limit.perSecond(), flowWindows.runningOf(limit.operation()), store.throttledCount(limit.operation()))).toList();
    }

    public long parked() {
        return ((Number) em.createNativeQuery("SELECT count(*) FROM order_state WHERE paused_on IS NOT NULL")
                .getSingleResult()).longValue();
    }

    /** The last 60 minutes, oldest first, each minute present. Reads the index order_state_finished (V10). */
    @SuppressWarnings("unchecked")
    public List<Minute> lastHour() {
        OffsetDateTime now = clocks.now().truncatedTo(ChronoUnit.MINUTES);
        OffsetDateTime from = now.minusMinutes(59);
        List<Object[]> rows = em.createNativeQuery("SELECT date_trunc('minute', updated_at) AS minute,"
                        + " count(*) FILTER (WHERE process_state = 'Processed'),"
                        + " count(*) FILTER (WHERE process_state <> 'Processed')"
                        + " FROM order_state WHERE process_state IN ('Processed', 'Compensated', 'Error')"
                        + " AND updated_at >= ?1 GROUP BY 1")
                .setParameter(1, from)
                .getResultList();
        Map<OffsetDateTime, Minute> byMinute = new LinkedHashMap<>();
        for (int i = 0; i < 60; i++) {
            OffsetDateTime minute = from.plusMinutes(i);
            byMinute.put(minute, new Minute(minute, 0, 0));
        }
        for (Object[] row : rows) {
            OffsetDateTime minute = utc(row[0]);
            byMinute.computeIfPresent(minute, (m, old) -> new Minute(m, ((Number) row[1]).longValue(),
                    ((Number) row[2]).longValue()));
        }
        return List.copyOf(byMinute.values());
    }

    /** The oldest order not yet in a final state, if any. */
    @SuppressWarnings("unchecked")
    public Optional<Waiting> oldestWaiting() {
        List<Object[]> rows = em.createNativeQuery(OLDEST_WAITING_SQL).getResultList();
        OffsetDateTime now = clocks.now();
        return rows.stream().findFirst().map(row -> new Waiting((String) row[0], ProcessState.valueOf((String) row[1]),
                utc(row[2]), Math.max(0, Duration.between(utc(row[2]), now).toSeconds())));
    }

    /**
     * {@link #oldestWaiting}'s statement: the oldest of each live state, each the first entry of its range
     * of order_state_listing_by_state, then the oldest of the three. One ORDER BY over the three states
     * together walked order_state_listing from the oldest order, past every finished one (20,330 index
     * entries for 20,000 finished orders), on each of the console's 2 s polls. Package-private so that the
     * database tests run the very text.
     */
    static final String OLDEST_WAITING_SQL = "SELECT order_id, process_state, created_at FROM ("
            + oldestIn("Pending") + " UNION ALL " + oldestIn("Processing") + " UNION ALL " + oldestIn("Compensating")
            + ") oldest ORDER BY created_at, order_id LIMIT 1";

    private static String oldestIn(String state) {
        return "(SELECT order_id, process_state, created_at FROM order_state WHERE process_state = '" + state + "'"
                + " ORDER BY created_at, order_id LIMIT 1)";
    }

    /** The orders in Error that have waited longest for an operator, up to {@code limit}. */
    @SuppressWarnings("unchecked")
    public List<InError> inError(int limit) {
        List<Object[]> rows = em.createNativeQuery("SELECT order_id, last_error, updated_at FROM order_state"
                        + " WHERE process_state = 'Error' ORDER BY created_at, order_id LIMIT ?1")
                .setParameter(1, limit)
                .getResultList();
        return rows.stream().map(row -> new InError((String) row[0], (String) row[1], utc(row[2]))).toList();
    }

    /**
     * A filter as SQL: {@code FROM} the orders, each a row {@code s} with the listing's columns (s.order_id,
     * s.created_at…; ListingSql says how the attribute it may name is read), then {@code WHERE} and the
     * conditions, numbered ?1 to ?n for {@code parameters}. The one home of the filter's SQL: the listing
     * pages through it, and a bulk job counts and fixes its targets with it.
     */
    public record Matching(String sql, List<Object> parameters) {
    }

    public Matching matching(Filter filter) {
        ListingSql listing = listing(filter);
        return new Matching(listing.matchingSql(), List.copyOf(listing.matchingParameters()));
    }

    /** The filter as the listing's SQL (ListingSql: also what the scale probe times). */
    private ListingSql listing(Filter filter) {
        return ListingSql.of(ListingSql.CONSOLE_COLUMNS)
                .attribute(filter.attributeName(), filter.attributeValue())
                .state(filter.state() == null ? null : filter.state().name())
                .workflow(filter.workflow())
                .customer(filter.customerId())
                .minFailures(filter.minFailures())
                .createdAtMost(filter.olderThan() == null ? null : clocks.now().minus(filter.olderThan()));
    }

    /**
     * Up to {@code limit} orders matching {@code filter} after the position (afterCreatedAt, afterOrderId)
     * in the order (created_at, order_id): the keyset listing of GET /api/orders, with more filters.
     */
    @SuppressWarnings("unchecked")
    public List<Line> list(Filter filter, OffsetDateTime afterCreatedAt, String afterOrderId, int limit) {
        ListingSql listing = listing(filter).after(afterCreatedAt, afterOrderId).limit(limit);
        var query = NativeParameters.bind(em.createNativeQuery(listing.sql()), 1, listing.parameters());
        List<Object[]> rows = query.getResultList();
        return rows.stream().map(AdminQueries::line).toList();
    }

    /** The lines of those of {@code orderIds} that name an order, in the order given; one query. */
    @SuppressWarnings("unchecked")
    public List<Line> lines(List<String> orderIds) {
        if (orderIds.isEmpty()) {
            return List.of();
        }
        var query = NativeParameters.bind(em.createNativeQuery(LINE_COLUMNS + " FROM order_state s JOIN customer_order o"
                + " ON o.order_id = s.order_id WHERE s.order_id IN (" + NativeParameters.placeholders(1, orderIds.size()) + ")"),
                1, orderIds);
        Map<String, Line> found = new HashMap<>();
        ((List<Object[]>) query.getResultList()).forEach(row -> found.put((String) row[0], line(row)));
        return orderIds.stream().map(found::get).filter(java.util.Objects::nonNull).toList();
    }

    /** A {@link Line}'s columns, of order_state s and customer_order o. */
    private static final String LINE_COLUMNS = "SELECT " + ListingSql.qualified(ListingSql.CONSOLE_COLUMNS);

    private static Line line(Object[] row) {
        return new Line((String) row[0], (String) row[1], (String) row[2], ProcessState.valueOf((String) row[3]),
                ((Number) row[4]).intValue(), (String) row[5], (String) row[6], utc(row[7]), utc(row[8]));
    }

    /** The order, its history, the remote calls its steps made, and what an operator may do now. */
    public Optional<Detail> detail(String orderId) {
        return orders.find(orderId).map(order -> {
            List<HistoryView> history = orders.history(orderId).orElse(List.of());
            return new Detail(order, history, calls(order, history), actions(order));
        });
    }

    /**
     * The remote calls, read from the history: each attempt that ended — applied, refused, expired,
     * compensated — names its step; the step's definition gives the operation, and the idempotency key
     * is the one every attempt at that operation sends. An attempt still running is listed without a result.
     */
    static List<Call> calls(OrderView order, List<HistoryView> history, WorkflowDefinition definition) {
        List<Call> calls = new ArrayList<>();
        for (HistoryView entry : history) {
            if (entry.step() == null || entry.to() == null) {
                continue;
            }
            StepDefinition step = definition == null ? null : definitionOf(definition, entry.step());
            if (step != null && step.awaitsEvent()) {
                continue; // a wait for an event makes no remote call; the history shows it
            }
            boolean compensation = entry.to().startsWith("Compensat");
            String operation = step == null ? entry.step()
                    : compensation ? step.compensationOperation().orElse(step.operation()) : step.operation();
            String result = switch (entry.to()) {
                case "Completed" -> "applied";
                case "Failed" -> "refused";
                case "TimedOut" -> "timed out";
                case "Compensated" -> "applied";
                case "CompensationFailed" -> "refused";
                default -> null;
            };
            boolean retried = "Running".equals(entry.from()) && "NotStarted".equals(entry.to());
            if (result == null && !retried) {
                continue;
            }
            calls.add(new Call(entry.step(), operation, compensation || "Compensated".equals(entry.to()),
                    AttemptRequest.idempotencyKey(order.orderId(), operation), entry.at(),
                    retried ? "no answer" : result, entry.reason()));
        }
        return calls;
    }

    private List<Call> calls(OrderView order, List<HistoryView> history) {
        WorkflowDefinition definition;
        try {
            definition = workflows.get(order.workflow(), order.workflowVersion());
        } catch (RuntimeException e) {
            definition = null; // an order whose definition is gone: its calls are shown without their kinds
        }
        return calls(order, history, definition);
    }

    private static StepDefinition definitionOf(WorkflowDefinition definition, String stepName) {
        return definition.steps().stream().filter(s -> s.name().equals(stepName)).findFirst().orElse(null);
    }

    private static Actions actions(OrderView order) {
        ProcessState state = order.processState();
        boolean compensationFailed = order.steps().stream().anyMatch(s -> s.state() == StepStatus.CompensationFailed);
        return new Actions(state == ProcessState.Error,
                state == ProcessState.Pending || state == ProcessState.Processing || state == ProcessState.Error
                        || compensationFailed);
    }
}
