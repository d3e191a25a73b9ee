package io.overseer.query;

import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

    private void submit(String orderId, OffsetDateTime at) throws Exception {
        jpa.inTransaction(em -> {
            em.persist(new CustomerOrder(orderId, "customer-" + orderId, List.of(), at));
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
