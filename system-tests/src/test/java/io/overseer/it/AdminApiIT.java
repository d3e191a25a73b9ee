package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.Metrics;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The admin API behind the console (docs/console.md): who may call what, pausing and resuming dispatch,
 * and the overview, order detail, listing and instances telling the truth about real orders.
 */
class AdminApiIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Http.Credentials VIEWER = TestStack.credentials(TestStack.VIEWER);
    private static final Http.Credentials OPERATOR = TestStack.credentials(TestStack.OPERATOR);
    /** Path parameters of the admin API, filled in so that every path can be called. */
    private static final Map<String, String> SAMPLE = Map.of("{orderId}", "no-such-order", "{scope}", "all",
            "{messageId}", "0", "{id}", "0", "{name}", "no-such-workflow", "{version}", "0", "{action}", "cancel");

    /**
     * Every admin endpoint the OpenAPI document lists — so that a new one cannot be left out — for an
     * anonymous caller (401), a viewer (reads; 403 on every action) and an operator. The operator's
     * actions are sent without a reason: a 400 proves they got past authorization, and acts on nothing; a
     * moved one (deprecated in the document) answers 308 to its one URL.
     */
    @Test
    void everyAdminEndpointNeedsALoginReadsNeedAViewerAndActionsAnOperator() {
        JsonNode paths = Http.send(HttpRequest.newBuilder(api.base().resolve("/openapi"))
                .header("Accept", "application/json").GET()).json().get("paths");
        List<String> checked = new ArrayList<>();
        paths.fieldNames().forEachRemaining(path -> {
            if (!path.contains("/api/admin/")) {
                return;
            }
            String concrete = path;
            for (var sample : SAMPLE.entrySet()) {
                concrete = concrete.replace(sample.getKey(), sample.getValue());
            }
            URI uri = api.base().resolve(concrete.substring(1)); // the document's paths leave out the context root
            JsonNode methods = paths.get(path);
            if (methods.has("get")) {
                assertEquals(401, Http.get(uri).status(), "anonymous GET " + path);
                assertReadAllowed(Http.get(uri, VIEWER), "viewer GET " + path);
                assertReadAllowed(Http.get(uri, OPERATOR), "operator GET " + path);
                checked.add("GET " + path);
            }
            if (methods.has("post")) {
                assertEquals(401, Http.post(uri, "application/json", "{}", (Http.Credentials) null).status(), "anonymous POST " + path);
                Http.Reply viewer = Http.post(uri, "application/json", "{\"reason\":\"not mine to do\"}", VIEWER);
                assertEquals(403, viewer.status(), "viewer POST " + path + ": " + viewer.body());
                assertTrue(viewer.contentType().startsWith("application/problem+json"), viewer.contentType());
                Http.Reply operator = Http.post(uri, "application/json", "{}", OPERATOR);
                if (methods.get("post").path("deprecated").asBoolean()) { // moved: docs/http-api.md, Changes
                    assertEquals(308, operator.status(), "operator POST " + path + ", moved: " + operator.body());
                    assertTrue(operator.location().contains("/api/operator/"), "moved to " + operator.location());
                } else {
                    assertEquals(400, operator.status(), "operator POST " + path + " without a reason: " + operator.body());
                }
                checked.add("POST " + path);
            }
        });
        assertTrue(checked.size() >= 10, "the OpenAPI document lists the admin API: " + checked);
        assertTrue(checked.contains("POST /api/admin/pauses"), checked.toString());
    }

    /**
     * A recurring schedule (docs/schedules.md): refused with a problem naming the field when its cron is not one;
     * created, it submits an order at each of its ticks, one per tick, each carrying the schedule and its tick,
     * and each Processed; paused with a reason and resumed, both audited; removed, its orders stay.
     */
    @Test
    void aScheduleSubmitsOneOrderPerTickAndOperatorsPauseResumeAndRemoveIt() {
        String order = "{\"customerId\":\"c-scheduled\",\"items\":[{\"sku\":\"sku-1\",\"quantity\":1}],"
                + "\"workflow\":\"single-charge\"}";
        Http.Reply bad = admin("schedules", "{\"id\":\"bad-cron\",\"cron\":\"61 * * * *\",\"order\":" + order + "}");
        assertEquals(400, bad.status(), bad.body());
        assertTrue(bad.contentType().startsWith("application/problem+json") && bad.body().contains("cron: ")
                && bad.body().contains("61 * * * *"), bad.body());
        Http.Reply created = admin("schedules", "{\"id\":\"every-two-seconds\",\"every\":\"PT2S\",\"order\":" + order + "}");
        assertEquals(201, created.status(), created.body());
        assertEquals(5, created.json().get("nextTicks").size(), created.body());
        assertEquals(409, admin("schedules", "{\"id\":\"every-two-seconds\",\"every\":\"PT2S\",\"order\":" + order + "}").status());

        String ofSchedule = "SELECT count(*) FROM order_attribute WHERE name = 'schedule' AND value = ?";
        Poll.until("three ticks' orders", WAIT, () -> TestStack.scalar(ofSchedule, "every-two-seconds") >= 3);
        Http.Reply paused = admin("schedules/every-two-seconds/pause", "{\"reason\":\"quarter-end freeze\"}");
        assertEquals(200, paused.status(), paused.body());
        assertEquals("quarter-end freeze", paused.json().get("pausedReason").asText());
        long orders = TestStack.scalar(ofSchedule, "every-two-seconds");
        assertEquals(orders, TestStack.scalar("SELECT count(DISTINCT t.value) FROM order_attribute t JOIN order_attribute s"
                + " ON s.order_id = t.order_id AND s.name = 'schedule' AND s.value = ? WHERE t.name = 'schedule.tick'",
                "every-two-seconds"), "one order per tick");
        JsonNode listing = Http.get(api.base().resolve("api/admin/orders?attribute=schedule:every-two-seconds&limit=100"), VIEWER).json();
        for (JsonNode each : listing.get("orders")) {
            api.awaitState(each.get("orderId").asText(), WAIT, "Processed");
        }
        assertTrue(listing.get("orders").size() >= 3, listing.toString());
        Poll.until("the ticks' meters at /api/metrics", WAIT, () -> {
            String metrics = Metrics.scrape(root).text();
            return metrics.contains("overseer_schedule_lag_seconds_count") && metrics.contains("overseer_schedule_ticks{");
        });
        JsonNode ticks = created.json().get("nextTicks");
        Http.Reply backfilled = admin("schedules/every-two-seconds/backfill", "{\"from\":\"" + ticks.get(0).asText()
                + "\",\"to\":\"" + ticks.get(2).asText() + "\",\"reason\":\"the report's first three runs again\"}");
        assertEquals(200, backfilled.status(), backfilled.body());
        assertEquals(3, backfilled.json().get("ticks").asInt(), backfilled.body());
        for (JsonNode tick : backfilled.json().get("orders")) {
            assertTrue(tick.get("replayed").asBoolean(), "a fired tick answers with its order: " + backfilled.body());
        }
        assertEquals(orders, TestStack.scalar(ofSchedule, "every-two-seconds"), "the backfill of fired ticks created nothing");
        Http.Reply tooLong = admin("schedules/every-two-seconds/backfill", "{\"from\":\"" + ticks.get(0).asText()
                + "\",\"to\":\"2099-01-01T00:00:00Z\",\"reason\":\"everything\"}");
        assertEquals(400, tooLong.status(), tooLong.body());
        assertTrue(tooLong.body().contains("in parts"), tooLong.body());
        Http.Reply triggered = admin("schedules/every-two-seconds/trigger", "{\"reason\":\"the auditors want it now\"}");
        assertEquals(202, triggered.status(), triggered.body());
        api.awaitState(triggered.json().get("orderId").asText(), WAIT, "Processed");
        Http.Reply resumed = admin("schedules/every-two-seconds/resume", "{\"reason\":\"freeze over\"}");
        assertEquals(200, resumed.status(), resumed.body());
        assertFalse(resumed.json().hasNonNull("pausedReason"), resumed.body());
        JsonNode audit = Http.get(api.base().resolve("api/admin/audit?limit=4"), VIEWER).json();
        List<String> actions = new ArrayList<>();
        audit.forEach(entry -> actions.add(entry.get("action").asText()));
        assertEquals(List.of("schedule-resume", "schedule-trigger", "schedule-backfill", "schedule-pause"), actions, audit.toString());
        Http.Reply removed = Http.send(Http.authorized(HttpRequest.newBuilder(
                api.base().resolve("api/admin/schedules/every-two-seconds")).DELETE(), OPERATOR));
        assertEquals(204, removed.status(), removed.body());
        assertEquals(404, Http.get(api.base().resolve("api/admin/schedules/every-two-seconds"), VIEWER).status());
    }

    private static void assertReadAllowed(Http.Reply reply, String what) {
        assertTrue(reply.status() == 200 || reply.status() == 404, what + ": " + reply.status() + " " + reply.body());
    }

    @Test
    void aPausedOperationParksOrdersWithoutFailureAndAResumeFinishesThem() {
        Http.Reply paused = admin("pauses", "{\"scope\":\"charge-payment\",\"reason\":\"payment provider maintenance\"}");
        assertEquals(200, paused.status(), paused.body());
        try {
            String orderId = api.submit("c-paused");
            JsonNode parked = awaitDetail(orderId, detail -> "charge-payment".equals(detail.at("/order/pausedOn").asText()));

            assertEquals("Pending", parked.at("/order/processState").asText());
            assertEquals("Completed", parked.at("/order/steps/0/state").asText());
            assertEquals("NotStarted", parked.at("/order/steps/1/state").asText());
            assertEquals(0, parked.at("/order/failureCount").asInt());
            assertTrue(parked.at("/order/completeBy").isNull(), "a parked order has no complete-by to expire");
            JsonNode overview = Http.get(api.base().resolve("api/admin/overview"), VIEWER).json();
            JsonNode pause = find(overview.get("pauses"), "scope", "charge-payment");
            assertTrue(pause.get("waiting").asInt() >= 1, overview.toString());
            assertNotNull(find(overview.get("alerts"), "kind", "dispatch-paused"), overview.toString());
        } finally {
            Http.Reply resumed = admin("pauses/charge-payment/resume", "{\"reason\":\"maintenance over\"}");
            assertEquals(200, resumed.status(), resumed.body());
        }
        JsonNode list = Http.get(api.base().resolve("api/admin/orders?customer=c-paused"), VIEWER).json();
        for (JsonNode order : list.get("orders")) {
            api.awaitState(order.get("orderId").asText(), WAIT, "Processed");
        }
        assertEquals(0, Http.get(api.base().resolve("api/admin/pauses"), VIEWER).json().get("paused").size());
        JsonNode audit = Http.get(api.base().resolve("api/admin/audit?limit=10"), VIEWER).json();
        assertEquals("resume", audit.get(0).get("action").asText(), audit.toString());
        assertEquals(TestStack.OPERATOR.name(), audit.get(0).get("operator").asText());
        assertEquals("pause", audit.get(1).get("action").asText(), audit.toString());
        assertEquals(400, admin("pauses", "{\"scope\":\"no-such-operation\",\"reason\":\"x\"}").status());
        assertEquals(404, admin("pauses/all/resume", "{\"reason\":\"nothing is paused\"}").status());
    }

    @Test
    void theOverviewTheOrderDetailAndTheInstancesTellWhatHappened() {
        String orderId = api.submit("c-admin-detail");
        api.awaitState(orderId, WAIT, "Processed");

        JsonNode detail = Http.get(api.base().resolve("api/admin/orders/" + orderId), VIEWER).json();
        JsonNode calls = detail.get("calls");
        assertEquals(3, calls.size(), detail.toString());
        assertEquals("reserve-inventory", calls.get(0).get("operation").asText());
        assertEquals(orderId + ":reserve-inventory", calls.get(0).get("idempotencyKey").asText());
        calls.forEach(call -> assertEquals("applied", call.get("result").asText(), call.toString()));
        assertFalse(detail.at("/actions/resubmit").asBoolean(), "a Processed order is not resubmitted");
        assertTrue(detail.get("history").size() >= 7, detail.toString());

        JsonNode overview = Http.get(api.base().resolve("api/admin/overview"), VIEWER).json();
        assertTrue(overview.at("/counts/Processed").asLong() >= 1, overview.toString());
        assertEquals(60, overview.get("lastHour").size());
        assertEquals(5, overview.get("queues").size(), "orders, agent.requests, agent.replies, DLQ, ExpiryQueue: " + overview);
        long processed = 0;
        for (JsonNode minute : overview.get("lastHour")) {
            processed += minute.get("processed").asLong();
        }
        assertTrue(processed >= 1, "the order finished within the hour: " + overview);
        JsonNode store = overview.get("store");
        JsonNode orderState = find(store.get("tables"), "table", "order_state");
        assertNotNull(orderState, "the state store's tables, order_state among them: " + store);
        assertTrue(orderState.get("tableBytes").asLong() > 0 && orderState.get("indexBytes").asLong() > 0, store.toString());
        long sum = 0;
        for (JsonNode table : store.get("tables")) {
            sum += table.get("tableBytes").asLong() + table.get("indexBytes").asLong();
        }
        assertEquals(sum, store.get("totalBytes").asLong(), store.toString());
        assertFalse(OffsetDateTime.parse(store.get("oldestFinished").asText()).isAfter(OffsetDateTime.now()),
                "a Processed order is kept, and the oldest is not in the future: " + store);

        JsonNode instances = awaitInstances();
        String holder = instances.at("/supervisor/holder").asText();
        assertEquals(holder, instances.at("/instances/0/instanceId").asText(), instances.toString());
        assertTrue(instances.at("/instances/0/alive").asBoolean(), instances.toString());

        JsonNode mine = Http.get(api.base().resolve("api/admin/orders?customer=c-admin-detail&minFailures=0"), VIEWER).json();
        assertEquals(1, mine.get("orders").size(), mine.toString());
        assertEquals(orderId, mine.at("/orders/0/orderId").asText());
        Http.Reply bad = Http.get(api.base().resolve("api/admin/orders?minFailures=many&olderThan=yesterday"), VIEWER);
        assertEquals(400, bad.status(), bad.body());
        assertTrue(bad.body().contains("minFailures") && bad.body().contains("olderThan"), bad.body());

        assertTrue(awaitMetric("overseer_orders", "state", "Processed") >= 1, "orders by state are sampled");
        assertTrue(awaitMetric("overseer_store_bytes", "table", "order_state", "part", "indexes") >= 1,
                "the state store's size, sampled with the overview's figures");
        assertTrue(Metrics.scrape(root).sum("overseer_store_oldest_finished_age_seconds") >= 0,
                "a Processed order is kept: its age, not -1");
        Metrics metrics = Metrics.scrape(root);
        assertTrue(metrics.has("overseer_dispatch_paused"), metrics.text());
        assertTrue(metrics.has("overseer_orders_parked"), metrics.text());
        assertTrue(metrics.has("overseer_supervisor_recoveries_total"), metrics.text());
        // Sampled from broker management on its own schedule: the first sample may predate the listeners.
        assertTrue(awaitMetric("overseer_broker_queue_consumers", "queue", "orders") >= 1,
                "the order queue's consumers, sampled from broker management: " + Metrics.scrape(root).text());

        JsonNode me = Http.get(api.base().resolve("api/admin/whoami"), VIEWER).json();
        assertEquals(List.of("viewer"), List.of(me.get("roles").get(0).asText()));
        assertEquals(1, me.get("roles").size(), me.toString());
    }

    /** The gauge is sampled every 15 s: waits for a sample above zero. */
    private double awaitMetric(String name, String... labels) {
        return Poll.await(WAIT, Duration.ofMillis(200), () -> Metrics.scrape(root).sum(name, labels), value -> value >= 1)
                .value();
    }

    private JsonNode awaitInstances() {
        return Poll.until("an instance to beat and the supervisor's lease to be held", WAIT, Duration.ofMillis(200),
                () -> Http.get(api.base().resolve("api/admin/instances"), VIEWER).json(),
                instances -> instances.get("instances").size() > 0 && !instances.at("/supervisor/holder").isNull());
    }

    private Http.Reply admin(String path, String json) {
        return Http.post(api.base().resolve("api/admin/" + path), "application/json", json, OPERATOR);
    }

    private JsonNode awaitDetail(String orderId, java.util.function.Predicate<JsonNode> until) {
        return Poll.until("order " + orderId + " to get there", WAIT, Duration.ofMillis(200),
                () -> Http.get(api.base().resolve("api/admin/orders/" + orderId), VIEWER).json(), until);
    }

    private static JsonNode find(JsonNode array, String field, String value) {
        for (JsonNode element : array) {
            if (value.equals(element.path(field).asText())) {
                return element;
            }
        }
        return null;
    }
}
