package io.overseer.statestore;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
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
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One "claimable" rule: {@link OrderState#isClaimable} (what a claim checks on the locked record) and the SQL
 * that finds and locks claimable records ({@link StateStore#CLAIMABLE}, in the hint's lock statement and the
 * due-order poller's query) must agree on every record, or a hint would lock a record its claim then refuses,
 * or a record the Java rule would start would never be found. Every combination of the columns the rule reads
 * — process state, claim, not-before (none, passed, to come), parking — is stored, then each record is asked
 * both ways at the same instant. The stranded-order poller's rule ({@link Sweeps#WAITING}) is the claimable
 * records that wait as a whole: a subset, without a running order's waiting branch.
 */
class ClaimableRuleDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 29, 8, 0, 0, 0, ZoneOffset.UTC);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            new StepDefinition("reserve", "reserve-inventory", "release-inventory", Duration.ofSeconds(30), 2, null, null,
                    OnExhausted.COMPENSATE)));
    private static final List<String> STATES = List.of("Pending", "Processing", "Compensating", "Processed", "Compensated",
            "Error");
    private static final List<String> NOT_BEFORE = List.of("none", "passed", "to come");

    @Test
    @SuppressWarnings("unchecked")
    void theJavaRuleAndTheSqlRulesAgreeOnEveryCombinationOfTheColumnsTheyRead() throws Exception {
        Event<OrderTransitions> transitions = mock(Event.class);
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "TRUNCATE customer_order, dispatch_pause, flow_limit CASCADE");
            update(c, "INSERT INTO workflow_version (workflow, version, definition, first_seen) VALUES (?1, ?2, ?3, ?4)"
                    + " ON CONFLICT DO NOTHING", ORDER.name(), ORDER.version(), ORDER.canonicalJson(), NOW);
        }
        List<String> ids = new ArrayList<>();
        for (String state : STATES) {
            for (boolean held : List.of(false, true)) {
                for (String notBefore : NOT_BEFORE) {
                    for (boolean parked : List.of(false, true)) {
                        String id = state + "|" + (held ? "held" : "free") + "|" + notBefore + "|" + (parked ? "parked" : "-");
                        ids.add(id);
                        jpa.inTransaction(em -> {
                            StoreOver.em(em, transitions).create(new CustomerOrder(id, "c", List.of(), NOW),
                                    OrderState.pending(id, ORDER, NOW.minusMinutes(5), Actor.of(Actor.Kind.submission, "n"), null));
                            return null;
                        });
                        try (Connection c = DB.getTestDatabase().getConnection()) {
                            update(c, "UPDATE order_state SET process_state = ?1, locked_by = ?2, complete_by = ?3,"
                                    + " not_before = ?4, paused_on = ?5 WHERE order_id = ?6", state,
                                    held ? "node-a" : null, held ? NOW.plusSeconds(30) : null,
                                    switch (notBefore) {
                                        case "passed" -> NOW.minusSeconds(1);
                                        case "to come" -> NOW.plusSeconds(1);
                                        default -> null;
                                    }, parked ? "reserve-inventory" : null, id);
                        }
                    }
                }
            }
        }

        Set<String> byJava = new TreeSet<>();
        jpa.inTransaction(em -> {
            for (String id : ids) {
                if (em.find(OrderState.class, id).isClaimable(NOW)) {
                    byJava.add(id);
                }
            }
            return null;
        });
        Set<String> bySql;
        Set<String> waiting;
        try (Connection c = DB.getTestDatabase().getConnection()) {
            bySql = new TreeSet<>(strings(c, "SELECT order_id FROM order_state WHERE " + StateStore.CLAIMABLE, NOW));
            waiting = new TreeSet<>(strings(c, "SELECT order_id FROM order_state WHERE " + Sweeps.WAITING, NOW));
        }

        assertEquals(byJava, bySql, "claimable in Java and in SQL, of " + ids.size() + " combinations");
        assertTrue(bySql.containsAll(waiting), "what the stranded-order poller finds is claimable: " + waiting);
        Set<String> branches = new TreeSet<>(bySql);
        branches.removeAll(waiting);
        assertTrue(branches.stream().allMatch(id -> id.startsWith("Processing|")),
                "only a running order's waiting branch is claimable without waiting as a whole: " + branches);
        assertTrue(bySql.contains("Pending|free|none|-") && !bySql.contains("Pending|free|to come|-")
                        && !bySql.contains("Pending|free|none|parked") && bySql.contains("Compensating|free|passed|-")
                        && !bySql.contains("Compensating|held|none|-") && !bySql.contains("Processed|free|none|-"),
                "the rule as the state machine states it: " + bySql);
    }
}
