package io.overseer.query;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.overseer.statestore.Actor;
import io.overseer.statestore.CustomerOrder;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.ProcessState;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The API's listing ({@link OrderQueries#list}) on PostgreSQL with the migrations, through EclipseLink. */
class OrderQueriesDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 24, 10, 0, 0, 0, ZoneOffset.UTC);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            new StepDefinition("reserve", "reserve-inventory", "release-inventory", Duration.ofSeconds(30), 2, null, null,
                    OnExhausted.COMPENSATE)));
    private static final Actor SUBMISSION = Actor.of(Actor.Kind.submission, "node-a");

    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    @BeforeEach
    void emptyStore() throws SQLException {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "TRUNCATE customer_order CASCADE");
            update(c, "INSERT INTO workflow_version (workflow, version, definition, first_seen) VALUES (?1, ?2, ?3, ?4)"
                    + " ON CONFLICT DO NOTHING", ORDER.name(), ORDER.version(), ORDER.canonicalJson(), T0);
        }
    }

    @Test
    void listPagesByCreationThenIdNeitherSkippingNorRepeatingAndFiltersByState() throws Exception {
        // three orders created in the same microsecond: only the id orders them
        submit("o-c", T0);
        submit("o-a", T0);
        submit("o-b", T0);
        submit("o-0", T0.plusSeconds(1));
        submit("o-z", T0.minusSeconds(1));
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "UPDATE order_state SET process_state = 'Processing' WHERE order_id = ?1", "o-a");
        }

        List<String> seen = new ArrayList<>();
        OrderSummary last = null;
        for (int page = 0; page < 5; page++) {
            OrderSummary after = last;
            List<OrderSummary> rows = inQueries(queries -> queries.list(null, after == null ? null : after.createdAt(),
                    after == null ? null : after.orderId(), 2));
            rows.forEach(row -> seen.add(row.orderId()));
            if (rows.size() < 2) {
                break;
            }
            last = rows.get(rows.size() - 1);
        }
        assertEquals(List.of("o-z", "o-a", "o-b", "o-c", "o-0"), seen);

        List<OrderSummary> processing = inQueries(queries -> queries.list(ProcessState.Processing, null, null, 10));
        assertEquals(List.of("o-a:customer-o-a:order:Processing"), processing.stream()
                .map(s -> s.orderId() + ":" + s.customerId() + ":" + s.workflow() + ":" + s.processState()).toList());
        assertEquals(T0.toInstant(), processing.get(0).createdAt().toInstant());
    }

    @Test
    void anAttributeFilterPagesInTheListingOrderFromTheAttributesOwnCopyOfItsPosition() throws Exception {
        submit("o-c", T0, Map.of("region", "eu-west", "batch", "b-1"));
        submit("o-a", T0, Map.of("region", "eu-west"));
        submit("o-b", T0, Map.of("region", "us-east"));
        submit("o-0", T0.plusSeconds(1), Map.of("region", "eu-west"));
        submit("o-z", T0.minusSeconds(1), Map.of("region", "eu-west", "batch", "b-1"));
        submit("o-none", T0.minusSeconds(2), Map.of());
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "UPDATE order_state SET process_state = 'Error' WHERE order_id IN ('o-a', 'o-b')");
            // V20: each attribute row carries its order's created_at, which the listing orders and pages by
            assertEquals(List.of("0"), strings(c, "SELECT count(*)::text FROM order_attribute a JOIN order_state s"
                    + " ON s.order_id = a.order_id WHERE a.created_at <> s.created_at"));
        }

        List<String> seen = new ArrayList<>();
        OrderSummary last = null;
        for (int page = 0; page < 5; page++) {
            OrderSummary after = last;
            List<OrderSummary> rows = inQueries(queries -> queries.list(null, "region", "eu-west",
                    after == null ? null : after.createdAt(), after == null ? null : after.orderId(), 2));
            rows.forEach(row -> seen.add(row.orderId()));
            if (rows.size() < 2) {
                break;
            }
            last = rows.get(rows.size() - 1);
        }
        assertEquals(List.of("o-z", "o-a", "o-c", "o-0"), seen);
        assertEquals(List.of("o-a"), inQueries(queries -> queries.list(ProcessState.Error, "region", "eu-west", null,
                null, 10)).stream().map(OrderSummary::orderId).toList());
        assertEquals(List.of("o-z", "o-c"), inQueries(queries -> queries.list(null, "batch", "b-1", null, null, 10))
                .stream().map(OrderSummary::orderId).toList());
    }

    @Test
    void aPageOfACommonAttributeValueIsOneRangeOfTheAttributeListingIndexNotAllItsMatches() throws Exception {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "INSERT INTO customer_order (order_id, customer_id, created_at)"
                    + " SELECT 'o-' || i, 'c', ?1::timestamptz + i * interval '1 second' FROM generate_series(1, 20000) i", T0);
            update(c, "INSERT INTO order_state (order_id, workflow, process_state, created_at, updated_at)"
                    + " SELECT order_id, 'order', 'Processed', created_at, created_at FROM customer_order");
            // V21: the orders are settled, so their rows carry a copy of their listing columns
            update(c, "INSERT INTO order_attribute (order_id, name, value, created_at, customer_id, workflow, process_state,"
                    + " failure_count, updated_at) SELECT order_id, 'region', 'r-' || (substr(order_id, 3)::int % 8), created_at,"
                    + " 'c', 'order', 'Processed', 0, created_at FROM customer_order");
            update(c, "ANALYZE");
            ListingSql listing = ListingSql.of(ListingSql.SUMMARY_COLUMNS).attribute("region", "r-0").limit(51);
            String plan = String.join("\n", strings(c, "EXPLAIN ANALYZE " + listing.sql(), listing.parameters().toArray()));
            // one page: 51 entries of the index, in order, no sort of the 2,500 matches, and no order looked up:
            // each one's columns are its attribute row's copy (V21)
            assertTrue(plan.contains("Index Scan using order_attribute_listing") && plan.contains("rows=51 loops=1")
                    && !plan.contains("Sort") && !plan.contains("Seq Scan") && !plan.contains("customer_order")
                    && plan.contains("(never executed)"), plan);
        }
    }

    private void submit(String orderId, OffsetDateTime at) throws Exception {
        submit(orderId, at, Map.of());
    }

    private void submit(String orderId, OffsetDateTime at, Map<String, String> attributes) throws Exception {
        jpa.inTransaction(em -> {
            em.persist(new CustomerOrder(orderId, "customer-" + orderId, List.of(), attributes, at));
            em.persist(OrderState.pending(orderId, ORDER, at, SUBMISSION, null));
            return null;
        });
    }

    private <T> T inQueries(Function<OrderQueries, T> work) throws Exception {
        return jpa.inTransaction((EntityManager em) -> {
            OrderQueries queries = new OrderQueries();
            queries.em = em;
            return work.apply(queries);
        });
    }
}
