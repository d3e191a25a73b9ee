package io.overseer.recurring;

import static io.overseer.platform.NativeSql.strings;
import static io.overseer.platform.NativeSql.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.overseer.admin.FinishedTallyDbTest;
import io.overseer.notification.AlertPublisher;
import io.overseer.platform.Clocks;
import io.overseer.platform.JpaDatabase;
import io.overseer.platform.Json;
import io.overseer.platform.MigratedDatabase;
import io.overseer.submission.BatchOrder;
import io.overseer.submission.BatchResult;
import io.overseer.submission.BatchSource;
import io.overseer.submission.OrderRequest;
import io.overseer.submission.OrderSubmission;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Firing ticks on PostgreSQL with the application's migrations and the product's SQL and entity: a due tick
 * submits one order, keyed by its schedule and tick and carrying both as attributes, and moves the schedule
 * on; two instances firing the same schedules at once submit one order per tick; an order the door refuses
 * pauses its schedule, saying why; a schedule whose last order still runs skips its tick; and the poll's
 * query can read its partial index. The door itself is stood in for (OrderSubmission's own tests cover it):
 * what is counted here is what the firing hands it.
 */
class TickFiringDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    private static final String BODY = Json.write(new OrderRequest("c-nightly", List.of(new OrderRequest.Item("sku-1", 1)),
            "order", null, null, Map.of("team", "ops")));

    /** What the firing handed the door: each order with the source it came from. */
    private final List<BatchOrder> submitted = new CopyOnWriteArrayList<>();
    private final Map<String, String> sources = new ConcurrentHashMap<>();
    private final AtomicReference<BatchResult.Refusal> refusal = new AtomicReference<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AlertPublisher alerts = mock(AlertPublisher.class);

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "TRUNCATE schedule");
            update(c, "TRUNCATE customer_order CASCADE");
        }
    }

    @Test
    void aDueTickSubmitsOneOrderKeyedByItsScheduleAndTickAndTheScheduleMovesOn() throws Exception {
        create("nightly", Cadence.every(Duration.ofMinutes(1)), Overlap.ALLOW);
        assertEquals(0, fire(T0.minusSeconds(1)), "not yet due");
        assertEquals(1, fire(T0.plusSeconds(1)));
        BatchOrder order = submitted.get(0);
        assertEquals(T0.toString(), order.idempotencyKey(), "keyed by the tick");
        assertEquals("schedule:nightly", sources.get(order.idempotencyKey()), "scoped to the schedule");
        assertEquals(Map.of("team", "ops", "schedule", "nightly", "schedule.tick", T0.toString()), order.request().attributes());
        assertEquals("c-nightly", order.request().customerId());
        assertEquals(0, fire(T0.plusSeconds(2)), "the tick fired once; the next is a minute later");
        assertEquals(1, registry.timer(ScheduleMetrics.LAG).count(), "its lag timed");
        assertEquals(new Schedules.Totals(1, 0, 1, 0, 0), jpa.inTransaction(em -> schedules(em).totals()));
        assertEquals(List.of("2026-11-29 12:01:00+00 1 o-" + T0), strings(DB.getTestDatabase().getConnection(),
                "SELECT next_due || ' ' || fired_count || ' ' || last_order_id FROM schedule"));
    }

    @Test
    void twoInstancesFiringTheSameSchedulesAtOnceSubmitOneOrderPerTick() throws Exception {
        for (int i = 0; i < 30; i++) {
            create("s-" + i, Cadence.every(Duration.ofMinutes(1)), Overlap.ALLOW);
        }
        Instant now = T0.plusSeconds(150); // ticks 12:00, 12:01, 12:02 due: fire-once submits one order each
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CyclicBarrier together = new CyclicBarrier(2);
        try {
            List<Future<Integer>> instances = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                instances.add(pool.submit(() -> {
                    List<String> ids = jpa.inTransaction(em -> schedules(em).firing(at(now), 100));
                    together.await();
                    return fire(now, ids);
                }));
            }
            int fired = instances.get(0).get(60, TimeUnit.SECONDS) + instances.get(1).get(60, TimeUnit.SECONDS);
            assertEquals(30, fired, "one order per schedule between the two");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(30, submitted.stream().map(o -> o.request().attributes().get("schedule") + "@" + o.idempotencyKey())
                .distinct().count(), "no tick twice: " + submitted.size() + " orders");
        assertEquals(List.of("30 60"), strings(DB.getTestDatabase().getConnection(),
                "SELECT sum(fired_count) || ' ' || sum(missed_count) FROM schedule"), "12:00 and 12:01 missed, 12:02 fired");
    }

    @Test
    void anOrderTheDoorRefusesPausesItsScheduleSayingWhy() throws Exception {
        create("refused", Cadence.every(Duration.ofMinutes(1)), Overlap.ALLOW);
        refusal.set(BatchResult.Refusal.invalid("workflow: no workflow named 'order'"));
        assertEquals(0, fire(T0.plusSeconds(1)));
        String reason = strings(DB.getTestDatabase().getConnection(), "SELECT paused_reason FROM schedule").get(0);
        assertTrue(reason.contains("no workflow named 'order'") && reason.contains(T0.toString()), reason);
        assertEquals(List.of(), jpa.inTransaction(em -> schedules(em).firing(at(T0.plusSeconds(120)), 10)),
                "a paused schedule is not polled");
    }

    @Test
    void whileItsLastOrderRunsAScheduleThatSkipsOverlapsFiresNothing() throws Exception {
        create("overlapping", Cadence.every(Duration.ofMinutes(1)), Overlap.SKIP);
        assertEquals(1, fire(T0.plusSeconds(1)));
        try (Connection c = DB.getTestDatabase().getConnection()) {
            FinishedTallyDbTest.orders(c, "o", 1, "Processing", at(T0));
            update(c, "UPDATE schedule SET last_order_id = 'o-1'");
        }
        assertEquals(0, fire(T0.plusSeconds(61)), "12:01 skipped: 12:00's order runs");
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "UPDATE order_state SET process_state = 'Processed'");
            assertEquals(List.of("1"), strings(c, "SELECT overlapped_count FROM schedule"));
        }
        assertEquals(1, fire(T0.plusSeconds(121)), "12:02 fires: the order before it finished");
    }

    @Test
    void aScheduleWhoseOrdersEndInErrorTooOftenInARowPausesItselfWithAnAlert() throws Exception {
        create("flaky", Cadence.every(Duration.ofMinutes(1)), Overlap.SKIP, 2);
        assertEquals(1, fire(T0.plusSeconds(1)));
        try (Connection c = DB.getTestDatabase().getConnection()) {
            FinishedTallyDbTest.orders(c, "e", 2, "Error", at(T0));
            update(c, "UPDATE schedule SET last_order_id = 'e-1'");
        }
        assertEquals(1, fire(T0.plusSeconds(61)), "one order in Error: the schedule goes on");
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "UPDATE schedule SET last_order_id = 'e-2'");
        }
        assertEquals(0, fire(T0.plusSeconds(121)), "two in a row: paused instead of firing");
        String reason = strings(DB.getTestDatabase().getConnection(), "SELECT paused_reason FROM schedule").get(0);
        assertTrue(reason.contains("last 2 orders ended in Error") && reason.contains("e-2"), reason);
        org.mockito.Mockito.verify(alerts).raise(org.mockito.ArgumentMatchers.isNull(),
                org.mockito.ArgumentMatchers.eq("schedule-paused"), org.mockito.ArgumentMatchers.contains("flaky"));
        jpa.inTransaction(em -> {
            schedules(em).lock("flaky").orElseThrow().resume(T0.plusSeconds(150));
            return null;
        });
        assertEquals(1, fire(T0.plusSeconds(181)), "resumed: the order already judged is not judged again");
    }

    @Test
    void thePollReadsItsPartialIndex() throws Exception {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            update(c, "SET enable_seqscan = off");
            String plan = String.join("\n", strings(c, "EXPLAIN " + Schedules.FIRING_SQL.replace("?1", "now()").replace("?2", "50")));
            assertTrue(plan.contains("schedule_firing"), plan);
        }
    }

    private void create(String id, Cadence cadence, Overlap overlap) throws Exception {
        create(id, cadence, overlap, null);
    }

    private void create(String id, Cadence cadence, Overlap overlap, Integer pauseAfterFailures) throws Exception {
        Recurrence recurrence = new Recurrence(cadence, ZoneId.of("UTC"), T0, null, DaylightSaving.DEFAULT);
        ScheduleRules rules = new ScheduleRules(new TickPlanner.Schedule(id, recurrence, MissedTicks.FIRE_ONCE, overlap, Jitter.NONE));
        jpa.inTransaction(em -> {
            schedules(em).add(new ScheduleRecord(rules, "order", BODY, pauseAfterFailures, T0.minusSeconds(60)));
            return null;
        });
    }

    private int fire(Instant now) throws Exception {
        return fire(now, jpa.inTransaction(em -> schedules(em).firing(at(now), 100)));
    }

    private int fire(Instant now, List<String> ids) throws Exception {
        if (ids.isEmpty()) {
            return 0;
        }
        return jpa.inTransaction(em -> firing(em, now).fire(ids));
    }

    private TickFiring firing(EntityManager em, Instant now) throws Exception {
        TickFiring firing = new TickFiring();
        firing.schedules = schedules(em);
        firing.settings = new ScheduleSettings();
        firing.settings.onTime = Duration.ofMinutes(1);
        firing.settings.batch = 50;
        firing.registry = registry;
        firing.alerts = alerts;
        firing.clocks = mock(Clocks.class);
        when(firing.clocks.now()).thenReturn(at(now));
        firing.orders = new TickOrders();
        firing.orders.submission = mock(OrderSubmission.class);
        when(firing.orders.submission.submitAll(any(), any())).thenAnswer(call -> {
            List<BatchOrder> orders = call.getArgument(0);
            BatchSource source = call.getArgument(1);
            List<BatchResult> results = new ArrayList<>();
            for (BatchOrder order : orders) {
                if (refusal.get() != null) {
                    results.add(BatchResult.refused(order.index(), refusal.get()));
                    continue;
                }
                submitted.add(order);
                sources.put(order.idempotencyKey(), source.scope());
                results.add(new BatchResult(order.index(), "o-" + order.idempotencyKey(), false, null));
            }
            return results;
        });
        return firing;
    }

    private static Schedules schedules(EntityManager em) {
        Schedules schedules = new Schedules();
        schedules.em = em;
        return schedules;
    }

    private static OffsetDateTime at(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
