package io.overseer.query;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.CustomerOrder;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.OrderTransitions;
import io.overseer.statestore.PausedDispatch;
import io.overseer.statestore.StateStore;
import io.overseer.statestore.StoreOver;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import jakarta.enterprise.event.Event;
import java.sql.Connection;
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

/**
 * V21: a settled order's listing columns, copied into its attribute rows by the transaction that settles it
 * (StateStore.saveHistory), equal its order_state row; and a listing driven by an attribute, which reads
 * settled orders from that copy and the others from order_state, returns exactly what the join of V20 did,
 * with every filter that combines with an attribute.
 */
class SettledListingDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 28, 10, 0, 0, 0, ZoneOffset.UTC);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            new StepDefinition("reserve", "reserve-inventory", "release-inventory", Duration.ofSeconds(30), 2, null, null,
                    OnExhausted.COMPENSATE),
            new StepDefinition("charge", "charge-payment", "refund-payment", Duration.ofSeconds(30), 2, null, null,
                    OnExhausted.COMPENSATE)));
    private static final Actor SUBMISSION = Actor.of(Actor.Kind.submission, "node-a");
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");
    private static final Actor AGENT = Actor.of(Actor.Kind.agent, "node-a");
    /** V20's listing, the reference: every order joined to its state, its order and the attribute. */
    private static final String V20 = "SELECT s.order_id FROM order_state s JOIN customer_order o ON o.order_id = s.order_id"
            + " JOIN order_attribute a ON a.order_id = s.order_id AND a.name = ?1 AND a.value = ?2 WHERE TRUE";

    @BeforeEach
    void emptyStore() throws Exception {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "TRUNCATE customer_order CASCADE");
            update(c, "INSERT INTO workflow_version (workflow, version, definition, first_seen) VALUES (?1, ?2, ?3, ?4)"
                    + " ON CONFLICT DO NOTHING", ORDER.name(), ORDER.version(), ORDER.canonicalJson(), T0);
        }
    }

    @Test
    void aSettledOrdersCopyEqualsItsStateRowAndPagesMixingLiveAndSettledOrdersAreThoseOfTheJoin() throws Exception {
        // twelve orders of one region, a second apart, two customers: settled both ways, running, waiting, in Error
        for (int i = 0; i < 12; i++) {
            submit("o-" + i, "c-" + (i % 2), T0.plusSeconds(i), Map.of("region", "eu-west", "channel", "web"));
        }
        submit("o-other", "c-0", T0.plusSeconds(3), Map.of("region", "us-east"));
        submit("o-none", "c-0", T0.plusSeconds(4), Map.of());
        for (String id : List.of("o-0", "o-3", "o-6", "o-9", "o-other", "o-none")) {
            process(id, T0.plusMinutes(1));
        }
        for (String id : List.of("o-1", "o-4", "o-7")) {
            compensate(id, T0.plusMinutes(2));
        }
        claim("o-2", T0.plusMinutes(3)); // running: Processing; o-5, o-8, o-11 stay Pending
        try (Connection c = DB.getTestDatabase().getConnection()) {
            // in Error, as a failed compensation leaves it: not settled, so not copied
            update(c, "UPDATE order_state SET process_state = 'Error', failure_count = 3, last_error = 'refund refused'"
                    + " WHERE order_id = 'o-10'");

            assertEquals(List.of("Compensated:3", "Error:1", "Pending:3", "Processed:5", "Processing:1"),
                    strings(c, "SELECT process_state || ':' || count(*) FROM order_state WHERE has_attributes"
                            + " GROUP BY process_state ORDER BY process_state"));
            assertEquals(List.of("false"), strings(c, "SELECT has_attributes::text FROM order_state WHERE order_id = 'o-none'"));
            // every settled order's rows carry its columns, equal to its state row; no other row carries any
            assertEquals(List.of("o-0", "o-1", "o-3", "o-4", "o-6", "o-7", "o-9", "o-other"), strings(c,
                    "SELECT DISTINCT a.order_id FROM order_attribute a JOIN order_state s ON s.order_id = a.order_id"
                            + " WHERE (a.workflow, a.process_state, a.failure_count, a.last_error, a.paused_on, a.updated_at,"
                            + " a.not_before) IS NOT DISTINCT FROM (s.workflow, s.process_state, s.failure_count, s.last_error,"
                            + " s.paused_on, s.updated_at, s.not_before) ORDER BY a.order_id"));
            assertEquals(List.of("0"), strings(c, "SELECT count(*)::text FROM order_attribute a JOIN order_state s"
                    + " ON s.order_id = a.order_id WHERE (a.process_state IS NULL) <> (s.process_state NOT IN"
                    + " ('Processed', 'Compensated'))"));
            assertEquals(List.of("0"), strings(c, "SELECT count(*)::text FROM order_attribute a JOIN customer_order o"
                    + " ON o.order_id = a.order_id WHERE a.customer_id <> o.customer_id"));
            assertEquals(List.of("Compensated", "Processed"), strings(c, "SELECT DISTINCT process_state FROM order_attribute"
                    + " WHERE process_state IS NOT NULL ORDER BY 1"));

            // the same orders as the join of V20, in the same order, for every filter that combines with an attribute
            for (String state : new String[] {null, "Processed", "Compensated", "Pending", "Processing", "Error"}) {
                for (Filter filter : List.of(new Filter(state, null, null, null, null), new Filter(state, "c-1", null, null, null),
                        new Filter(state, null, 1, null, null), new Filter(state, null, null, "order", T0.plusSeconds(7)),
                        new Filter(state, "c-0", 0, "other", null))) {
                    ListingSql listing = filter.listing();
                    List<String> expected = strings(c, filter.reference(), filter.referenceParameters());
                    assertEquals(expected, pages(c, listing, 2), listing.sql());
                    assertEquals(List.of(Integer.toString(expected.size())), strings(c, "SELECT count(*)::text"
                            + listing.matchingSql(), listing.matchingParameters().toArray()), listing.matchingSql());
                }
            }
            // and the columns a page shows are the state row's, whichever the source
            ListingSql all = ListingSql.of(ListingSql.CONSOLE_COLUMNS).attribute("region", "eu-west").limit(20);
            String shown = "SELECT row(l.*)::text FROM (" + all.sql() + ") l";
            String own = "SELECT row(l.*)::text FROM (SELECT " + ListingSql.qualified(ListingSql.CONSOLE_COLUMNS)
                    + " FROM order_state s JOIN customer_order o ON o.order_id = s.order_id"
                    + " WHERE s.order_id LIKE 'o-%' AND s.order_id NOT IN ('o-other', 'o-none')"
                    + " ORDER BY s.created_at, s.order_id) l";
            assertEquals(strings(c, own), strings(c, shown, all.parameters().toArray()));
            assertTrue(strings(c, "EXPLAIN ANALYZE " + all.sql(), all.parameters().toArray()).stream()
                    .anyMatch(line -> line.contains("order_state_pkey") && line.contains("loops=")), "the live ones are looked up");
        }
    }

    @Test
    void aStateWhoseOrdersStayFewReadsEachAttributeFromTheIndexOfUnsettledRows() throws Exception {
        submit("o-1", "c-1", T0, Map.of("region", "eu-west"));
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "SET enable_seqscan = off"); // a tiny table: ask for the plan the index makes
            ListingSql listing = ListingSql.of(ListingSql.CONSOLE_COLUMNS).state("Pending").attribute("region", "eu-west");
            String plan = String.join("\n", strings(c, "EXPLAIN " + listing.sql(), listing.parameters().toArray()));
            assertTrue(plan.contains("order_attribute_unsettled") && !plan.contains("customer_order"), plan);
            assertEquals(List.of("o-1"), strings(c, listing.sql(), listing.parameters().toArray()));
        }
        process("o-1", T0.plusMinutes(1));
        try (Connection c = DB.getTestDatabase().getConnection()) {
            assertEquals(List.of("0"), strings(c, "SELECT count(*)::text FROM order_attribute WHERE process_state IS NULL"));
        }
    }

    /** The listing's pages of {@code size}, each after the last row of the one before, as the API pages. */
    private static List<String> pages(Connection c, ListingSql listing, int size) throws Exception {
        List<String> seen = new ArrayList<>();
        OffsetDateTime afterAt = null;
        String afterId = null;
        while (true) {
            listing.after(afterAt, afterId).limit(size);
            List<String> ids = strings(c, listing.sql(), listing.parameters().toArray()); // order_id comes first
            seen.addAll(ids);
            if (ids.size() < size) {
                return seen;
            }
            afterId = ids.get(ids.size() - 1);
            afterAt = createdAt(c, afterId);
        }
    }

    private static OffsetDateTime createdAt(Connection c, String orderId) throws Exception {
        try (var statement = c.prepareStatement("SELECT created_at FROM order_state WHERE order_id = ?")) {
            statement.setString(1, orderId);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getObject(1, OffsetDateTime.class);
            }
        }
    }

    /** The filters that combine with an attribute (null: not set), as the listing and as V20's join. */
    private record Filter(String state, String customer, Integer minFailures, String workflow, OffsetDateTime createdAtMost) {

        ListingSql listing() {
            return ListingSql.of(ListingSql.CONSOLE_COLUMNS).attribute("region", "eu-west").state(state).customer(customer)
                    .minFailures(minFailures).workflow(workflow).createdAtMost(createdAtMost);
        }

        /** V20's join, every match in the listing's order: ?1 the name, ?2 the value, then each filter set. */
        String reference() {
            StringBuilder sql = new StringBuilder(V20);
            int n = 2;
            for (String test : new String[] {state == null ? null : "s.process_state = ", customer == null ? null : "o.customer_id = ",
                    minFailures == null ? null : "s.failure_count >= ", workflow == null ? null : "s.workflow = ",
                    createdAtMost == null ? null : "s.created_at <= "}) {
                if (test != null) {
                    sql.append(" AND ").append(test).append("?").append(++n);
                }
            }
            return sql.append(" ORDER BY s.created_at, s.order_id").toString();
        }

        Object[] referenceParameters() {
            List<Object> values = new ArrayList<>(List.of("region", "eu-west"));
            for (Object value : new Object[] {state, customer, minFailures, workflow, createdAtMost}) {
                if (value != null) {
                    values.add(value);
                }
            }
            return values.toArray();
        }
    }

    private void submit(String orderId, String customer, OffsetDateTime at, Map<String, String> attributes) throws Exception {
        inStore(store -> {
            store.create(new CustomerOrder(orderId, customer, List.of(), attributes, at),
                    OrderState.pending(orderId, ORDER, at, SUBMISSION, null));
            return null;
        });
    }

    private List<Attempt> claim(String orderId, OffsetDateTime now) throws Exception {
        return inStore(store -> {
            OrderState state = store.lock(orderId).orElseThrow();
            List<Attempt> attempts = state.claim("node-a", now, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE);
            store.saveHistory(state);
            return attempts;
        });
    }

    /** Both steps applied: Processed. */
    private void process(String orderId, OffsetDateTime now) throws Exception {
        Attempt reserve = claim(orderId, now).get(0);
        Attempt charge = reply(orderId, reserve, null, now.plusSeconds(1)).get(0);
        reply(orderId, charge, null, now.plusSeconds(2));
    }

    /** The charge refused for good, the reservation released: Compensated. */
    private void compensate(String orderId, OffsetDateTime now) throws Exception {
        Attempt reserve = claim(orderId, now).get(0);
        Attempt charge = reply(orderId, reserve, null, now.plusSeconds(1)).get(0);
        Attempt release = reply(orderId, charge, "card declined", now.plusSeconds(2)).get(0);
        reply(orderId, release, null, now.plusSeconds(3));
    }

    /** The agent's reply to {@code attempt}: applied, or refused for good with {@code refusal}. */
    private List<Attempt> reply(String orderId, Attempt attempt, String refusal, OffsetDateTime now) throws Exception {
        return inStore(store -> {
            OrderState state = store.lock(orderId).orElseThrow();
            List<Attempt> next = refusal == null
                    ? state.succeed("node-a", attempt.epoch(), attempt.stepSeq(), now, ORDER, AGENT, PausedDispatch.NONE)
                    : state.fail("node-a", attempt.epoch(), attempt.stepSeq(), refusal, now, ORDER, AGENT, PausedDispatch.NONE);
            store.saveHistory(state);
            return next;
        });
    }

    @SuppressWarnings("unchecked")
    private <T> T inStore(Function<StateStore, T> work) throws Exception {
        Event<OrderTransitions> transitions = mock(Event.class);
        return jpa.inTransaction(em -> work.apply(StoreOver.em(em, transitions)));
    }
}
