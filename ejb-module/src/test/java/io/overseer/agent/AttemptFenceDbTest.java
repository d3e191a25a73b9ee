package io.overseer.agent;

import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.overseer.statestore.StepState;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link AttemptFence}'s own query through EclipseLink on the migrated database: an attempt is current
 * while its step is claimed at that epoch — per step, so the branches of a parallel group each answer
 * for their own epoch — and a cancelled, retried or answered attempt is not.
 */
class AttemptFenceDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 24, 11, 0, 0, 0, ZoneOffset.UTC);
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    @BeforeAll
    static void orders() throws SQLException {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            // o-1: a parallel group, branch 0 at epoch 3 and branch 1 at epoch 4; step 2 not started
            order(c, "o-1");
            step(c, "o-1", 0, "Running", "node-a", 3L);
            step(c, "o-1", 1, "Running", "node-a", 4L);
            step(c, "o-1", 2, "NotStarted", null, null);
            // o-2: its attempt at epoch 7 answered (released), the step done
            order(c, "o-2");
            step(c, "o-2", 0, "Completed", null, 7L);
        }
    }

    @Test
    void eachBranchIsCurrentAtItsOwnEpochOnly() throws Exception {
        assertEquals(List.of("o-1@3", "o-1@4"), runnable(request("o-1", 3, 0), request("o-1", 4, 1)));
        assertEquals(List.of("o-1@4"), runnable(request("o-1", 2, 0), request("o-1", 4, 1)),
                "an earlier attempt of branch 0 (retried since) is stale beside its running sibling");
        assertEquals(List.of(), runnable(request("o-1", 4, 0)), "a sibling's epoch is not this branch's");
        assertEquals(Set.of("o-1@3"), current(request("o-1", 2, 0), request("o-1", 3, 0)),
                "the keys read: the step's running attempt, once");
    }

    @Test
    void anAnsweredOrUnstartedStepOrAnUnknownOrderHasNoCurrentAttempt() throws Exception {
        assertEquals(Set.of(), current(request("o-2", 7, 0), request("o-1", 4, 2), request("nobody", 1, 0)));
        assertEquals(Set.of(), current());
    }

    @Test
    void oneRequestIsCheckedAsABatchOfOne() throws Exception {
        assertTrue(jpa.<Boolean>inTransaction(em -> fence(em).isCurrent(request("o-1", 4, 1))));
        assertFalse(jpa.<Boolean>inTransaction(em -> fence(em).isCurrent(request("o-1", 5, 1))));
    }

    /** As RemoteServiceAgent uses the fence: the requests of the batch whose key the fence returned. */
    private static List<String> runnable(AttemptRequest... requests) throws Exception {
        Set<String> current = current(requests);
        return java.util.Arrays.stream(requests).map(r -> AttemptFence.key(r.orderId(), r.epoch()))
                .filter(current::contains).toList();
    }

    private static Set<String> current(AttemptRequest... requests) throws Exception {
        return jpa.inTransaction(em -> fence(em).current(List.of(requests)));
    }

    private static AttemptFence fence(jakarta.persistence.EntityManager em) {
        AttemptFence fence = new AttemptFence();
        fence.em = em;
        return fence;
    }

    private static AttemptRequest request(String orderId, long epoch, int stepSeq) {
        return new AttemptRequest(orderId, epoch, stepSeq, "token", "op", AttemptRequest.idempotencyKey(orderId, "op"),
                NOW.plusSeconds(30), "c", List.of(), null, Map.of(), null);
    }

    /** Test data: the rows a claim leaves, written directly (the claim's own writes are StateStoreDbTest's). */
    private static void order(Connection c, String orderId) throws SQLException {
        update(c, "INSERT INTO customer_order (order_id, customer_id, created_at) VALUES (?1, 'c', ?2)", orderId, NOW);
        update(c, "INSERT INTO order_state (order_id, workflow, process_state, created_at, updated_at)"
                + " VALUES (?1, 'order', 'Processing', ?2, ?2)", orderId, NOW);
    }

    private static void step(Connection c, String orderId, int seq, String state, String lockedBy, Long epoch)
            throws SQLException {
        update(c, "INSERT INTO step_state (step_id, order_id, seq, name, state, locked_by, epoch, updated_at)"
                + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", StepState.idOf(orderId, seq), orderId, seq, "step-" + seq,
                state, lockedBy, epoch, NOW);
    }
}
