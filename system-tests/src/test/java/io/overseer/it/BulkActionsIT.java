package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.Poll;
import io.overseer.support.Problems;
import io.overseer.support.TestStack;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Bulk actions over the admin API (docs/console.md, "Bulk actions"): a preview, then a job in the
 * background that acts on each target once, records each order's history and the audit log once, skips
 * what it cannot act on with why, and can be cancelled. The console's side is ConsoleOperatorIT's; the
 * take-over of a job whose instance dies is BulkJobFailoverIT's.
 */
class BulkActionsIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private final Http.Credentials operator = TestStack.credentials(TestStack.OPERATOR);
    private final Http.Credentials viewer = TestStack.credentials(TestStack.VIEWER);

    @Test
    void aBulkResubmitRunsEveryOrderInErrorAgainOnceAndSkipsWhatItCannotAct() {
        String batch = "b-" + UUID.randomUUID().toString().substring(0, 8);
        simulator.fault("charge-payment", "fatal", 1.0, 0);
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            orders.add(submit("c-bulk-" + i, batch));
        }
        orders.forEach(id -> api.awaitState(id, WAIT, "Error"));
        simulator.clearFaults();

        String selection = "\"filter\":{\"state\":\"Error\",\"attribute\":\"batch:" + batch + "\"}";
        Http.Reply preview = post("bulk-jobs/preview", "{\"action\":\"resubmit\"," + selection + "}", operator);
        assertEquals(200, preview.status(), preview.body());
        assertEquals(30, preview.json().get("matched").asInt());
        assertEquals(10, preview.json().get("orders").size(), "a sample of ten");
        assertTrue(orders.contains(preview.json().get("orders").get(0).get("orderId").asText()));

        Http.Reply started = post("bulk-jobs", "{\"action\":\"resubmit\"," + selection
                + ",\"reason\":\"payment provider healed\"}", operator);
        assertEquals(201, started.status(), started.body());
        long job = started.json().get("id").asLong();
        assertTrue(started.location().endsWith("/api/admin/bulk-jobs/" + job), started.location());
        assertEquals(30, started.json().get("total").asInt());

        JsonNode finished = awaitJob(job, "Finished");
        assertEquals(30, finished.get("done").asInt(), finished.toString());
        assertEquals(0, finished.get("skipped").asInt(), finished.toString());
        assertEquals(0, finished.get("failed").asInt(), finished.toString());
        for (String orderId : orders) {
            api.awaitState(orderId, WAIT, "Processed");
            assertEquals(1, simulator.effects(orderId).size(), "charged once: " + orderId);
            List<JsonNode> byOperator = new ArrayList<>();
            api.history(orderId).forEach(entry -> {
                if ("operator".equals(entry.path("actor").asText()) && entry.path("to").asText().equals("Pending")) {
                    byOperator.add(entry);
                }
            });
            assertEquals(1, byOperator.size(), "resubmitted once: " + orderId);
            assertEquals("bulk job " + job + ": payment provider healed", byOperator.get(0).get("reason").asText());
            assertEquals(TestStack.OPERATOR.name(), byOperator.get(0).get("actorName").asText());
        }
        List<JsonNode> audited = auditOf("bulk job " + job);
        assertEquals(1, audited.size(), "the job is in the audit log once, as a whole: " + audited);
        assertEquals("bulk-resubmit", audited.get(0).get("action").asText());
        assertTrue(audited.get(0).get("outcome").asText().contains(batch), "with its filter: " + audited);

        // The same selection again matches nothing: none is in Error any more.
        Http.Reply again = post("bulk-jobs", "{\"action\":\"resubmit\"," + selection + ",\"reason\":\"twice\"}", operator);
        assertEquals(400, again.status(), again.body());
        assertTrue(again.body().contains("matches nothing"), again.body());

        // Named orders: finished ones and unknown ones are skipped, each saying why; one named twice is one item.
        String unknown = UUID.randomUUID().toString();
        Http.Reply namedPreview = post("bulk-jobs/preview", "{\"action\":\"resubmit\",\"orderIds\":[\"" + unknown
                + "\",\"" + orders.get(1) + "\",\"" + orders.get(0) + "\",\"" + orders.get(1) + "\"]}", operator);
        assertEquals(200, namedPreview.status(), namedPreview.body());
        assertEquals(3, namedPreview.json().get("matched").asInt(), "distinct: " + namedPreview.body());
        assertEquals(1, namedPreview.json().get("unknown").asInt(), namedPreview.body());
        assertEquals(List.of(orders.get(1), orders.get(0)), List.of(namedPreview.json().get("orders").get(0).get("orderId").asText(),
                namedPreview.json().get("orders").get(1).get("orderId").asText()), "in the order given");
        Http.Reply named = post("bulk-jobs", "{\"action\":\"resubmit\",\"orderIds\":[\"" + orders.get(0) + "\",\""
                + orders.get(1) + "\",\"" + orders.get(0) + "\",\"" + unknown + "\"],\"reason\":\"by name\"}", operator);
        assertEquals(201, named.status(), named.body());
        assertEquals(3, named.json().get("total").asInt(), named.body());
        JsonNode skipped = awaitJob(named.json().get("id").asLong(), "Finished");
        assertEquals(3, skipped.get("skipped").asInt(), skipped.toString());
        Map<String, String> why = new HashMap<>();
        Http.Reply items = Http.get(admin("bulk-jobs/" + skipped.get("id").asLong() + "/items?outcome=skipped"), viewer);
        assertEquals(200, items.status(), items.body());
        items.json().get("items").forEach(item -> why.put(item.get("target").asText(), item.get("detail").asText()));
        assertEquals("no such order", why.get(unknown));
        assertTrue(why.get(orders.get(0)).contains("from Processed"), why.toString());
        assertEquals(1, simulator.effects(orders.get(0)).size(), "still charged once");
    }

    @Test
    void aBulkCancelUndoesOrdersInErrorAndARunningJobCanBeCancelled() {
        String batch = "b-" + UUID.randomUUID().toString().substring(0, 8);
        simulator.fault("charge-payment", "fatal", 1.0, 0);
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            orders.add(submit("c-bulk-cancel-" + i, batch));
        }
        orders.forEach(id -> api.awaitState(id, WAIT, "Error"));

        // One action a second: cancelled after the first, the rest are skipped, saying so.
        Http.Reply slow = post("bulk-jobs", "{\"action\":\"cancel\",\"orderIds\":[\"" + String.join("\",\"", orders)
                + "\"],\"reason\":\"customer withdrew\",\"ratePerSecond\":1}", operator);
        assertEquals(201, slow.status(), slow.body());
        long job = slow.json().get("id").asLong();
        Poll.until("job " + job + " to act on one order", WAIT, () -> job(job).get("done").asInt() >= 1);
        Http.Reply cancelled = post("bulk-jobs/" + job + "/cancel", "{\"reason\":\"enough\"}", operator);
        assertEquals(200, cancelled.status(), cancelled.body());
        JsonNode after = cancelled.json();
        assertEquals("Cancelled", after.get("state").asText());
        assertEquals(0, after.get("pending").asInt(), after.toString());
        assertEquals(6, after.get("done").asInt() + after.get("skipped").asInt(), after.toString());
        assertTrue(after.get("skipped").asInt() >= 1, "cancelled before the end: " + after);
        Http.Reply items = Http.get(admin("bulk-jobs/" + job + "/items?outcome=skipped"), operator);
        items.json().get("items").forEach(item ->
                assertTrue(item.get("detail").asText().startsWith("job cancelled by " + TestStack.OPERATOR.name()), item.toString()));
        assertEquals(409, post("bulk-jobs/" + job + "/cancel", "{\"reason\":\"again\"}", operator).status());

        int done = after.get("done").asInt();
        int compensated = 0;
        for (String orderId : orders) {
            JsonNode order = api.awaitState(orderId, WAIT, "Compensated", "Error");
            compensated += "Compensated".equals(order.get("processState").asText()) ? 1 : 0;
        }
        assertEquals(done, compensated, "each order the job cancelled is compensated, the others still in Error");
    }

    @Test
    void aBulkReleaseLetsTheMatchingParkedOrdersThroughThePauseAndTheOthersWait() {
        String batch = "b-" + UUID.randomUUID().toString().substring(0, 8);
        Http.Reply paused = post("pauses", "{\"scope\":\"charge-payment\",\"reason\":\"provider maintenance\"}", operator);
        assertEquals(200, paused.status(), paused.body());
        try {
            List<String> vip = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                vip.add(submit("c-bulk-vip-" + i, batch));
            }
            String other = submit("c-bulk-other", "b-other-" + batch);
            for (String orderId : vip) {
                Poll.until(orderId + " to park", WAIT, () -> "charge-payment".equals(adminOrder(orderId).path("pausedOn").asText()));
            }

            Http.Reply started = post("bulk-jobs", "{\"action\":\"release\",\"filter\":{\"attribute\":\"batch:" + batch
                    + "\"},\"reason\":\"VIP customers\"}", operator);
            assertEquals(201, started.status(), started.body());
            JsonNode finished = awaitJob(started.json().get("id").asLong(), "Finished");
            assertEquals(3, finished.get("done").asInt(), finished.toString());
            for (String orderId : vip) {
                api.awaitState(orderId, WAIT, "Processed");
            }
            assertEquals("charge-payment", adminOrder(other).path("pausedOn").asText(), "the pause still holds the others");
            assertEquals("Pending", api.get(other).get("processState").asText());
        } finally {
            post("pauses/charge-payment/resume", "{\"reason\":\"test cleanup\"}", operator);
        }
    }

    @Test
    void aBulkRedriveSendsMatchingDeadLettersBack() throws Exception {
        String outage = "bulk-redrive-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> customers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String customer = outage + "-" + i;
            customers.add(customer);
            DeadLetterQueue.putOrder(customer, "the state store was unreachable (" + outage + ")");
        }
        String selection = "\"deadLetters\":{\"originalQueue\":\"orders\",\"reason\":\"" + outage + "\"}";
        Http.Reply preview = post("bulk-jobs/preview", "{\"action\":\"redrive\"," + selection + "}", operator);
        assertEquals(200, preview.status(), preview.body());
        assertEquals(3, preview.json().get("matched").asInt(), preview.body());

        Http.Reply started = post("bulk-jobs", "{\"action\":\"redrive\"," + selection + ",\"reason\":\"store back\"}",
                operator);
        assertEquals(201, started.status(), started.body());
        JsonNode finished = awaitJob(started.json().get("id").asLong(), "Finished");
        assertEquals(3, finished.get("done").asInt(), finished.toString());
        for (String customer : customers) {
            api.awaitState(TestStack.awaitOrderOf(customer, WAIT), WAIT, "Processed");
        }
    }

    @Test
    void badBulkRequestsAreRefusedClearlyAndViewersOnlyRead() {
        assertProblem(post("bulk-jobs", "{\"action\":\"resubmit\",\"reason\":\"all of them\"}", operator), "everything");
        assertProblem(post("bulk-jobs/preview", "{\"action\":\"cancel\",\"filter\":{}}", operator), "everything");
        assertProblem(post("bulk-jobs", "{\"action\":\"explode\",\"filter\":{\"state\":\"Error\"},\"reason\":\"x\"}",
                operator), "action");
        assertProblem(post("bulk-jobs", "{\"action\":\"resubmit\",\"filter\":{\"state\":\"Error\"}}", operator), "reason");
        assertProblem(post("bulk-jobs", "{\"action\":\"resubmit\",\"filter\":{\"state\":\"Broken\"},\"reason\":\"x\"}",
                operator), "filter.state");
        assertProblem(post("bulk-jobs", "{\"action\":\"redrive\",\"filter\":{\"state\":\"Error\"},\"reason\":\"x\"}",
                operator), "filter");
        assertProblem(post("bulk-jobs", "{\"action\":\"resubmit\",\"filter\":{\"state\":\"Error\"},\"orderIds\":[\"a\"],"
                + "\"reason\":\"x\"}", operator), "orderIds");
        assertProblem(post("bulk-jobs", "{\"action\":\"resubmit\",\"orderIds\":[],\"reason\":\"x\"}", operator), "ids");
        assertProblem(post("bulk-jobs", "{\"action\":\"resubmit\",\"filter\":{\"state\":\"Error\"},\"reason\":\"x\","
                + "\"ratePerSecond\":0}", operator), "ratePerSecond");
        assertProblem(post("bulk-jobs", "{\"action\":\"resubmit\",\"everything\":\"yes\",\"reason\":\"x\"}", operator),
                "everything");
        assertEquals(404, Http.get(admin("bulk-jobs/999999999"), viewer).status());
        assertEquals(404, Http.get(admin("bulk-jobs/not-a-job"), viewer).status());

        // Viewers see the jobs, and cannot preview, start or cancel one.
        assertEquals(200, Http.get(admin("bulk-jobs"), viewer).status());
        assertEquals(403, post("bulk-jobs/preview", "{\"action\":\"resubmit\",\"filter\":{\"state\":\"Error\"}}", viewer)
                .status());
        assertEquals(403, post("bulk-jobs", "{\"action\":\"resubmit\",\"filter\":{\"state\":\"Error\"},\"reason\":\"x\"}",
                viewer).status());
        assertEquals(403, post("bulk-jobs/1/cancel", "{\"reason\":\"x\"}", viewer).status());
    }

    private String submit(String customer, String batch) {
        return api.submitWithAttributes(customer, "single-charge", "{\"batch\":\"" + batch + "\"}");
    }

    private JsonNode adminOrder(String orderId) {
        Http.Reply reply = Http.get(admin("orders/" + orderId), viewer);
        assertEquals(200, reply.status(), reply.body());
        return reply.json().get("order");
    }

    private JsonNode awaitJob(long id, String state) {
        return Poll.until("bulk job " + id + " to be " + state, WAIT, Duration.ofMillis(300), () -> job(id),
                job -> state.equals(job.get("state").asText()));
    }

    private JsonNode job(long id) {
        Http.Reply reply = Http.get(admin("bulk-jobs/" + id), viewer);
        assertEquals(200, reply.status(), reply.body());
        return reply.json();
    }

    private List<JsonNode> auditOf(String target) {
        Http.Reply reply = Http.get(admin("audit?limit=200"), viewer);
        assertEquals(200, reply.status(), reply.body());
        List<JsonNode> entries = new ArrayList<>();
        JsonNode all = reply.json().has("entries") ? reply.json().get("entries") : reply.json();
        all.forEach(entry -> {
            if (target.equals(entry.get("target").asText())) {
                entries.add(entry);
            }
        });
        return entries;
    }

    private static void assertProblem(Http.Reply reply, String field) {
        JsonNode problem = Problems.assertProblem(reply, 400);
        assertTrue(Problems.fields(problem).contains(field), "names " + field + ": " + reply.body());
    }

    private Http.Reply post(String path, String json, Http.Credentials as) {
        return Http.post(admin(path), "application/json", json, as);
    }

    private URI admin(String path) {
        return root.resolve("api/admin/" + path);
    }
}
