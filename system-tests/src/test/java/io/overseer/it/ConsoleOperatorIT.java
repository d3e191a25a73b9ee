package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.support.Browser;
import io.overseer.support.Http;
import io.overseer.support.TestStack;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The console in a real browser as an operator, each action through the page's reason dialog and each
 * outcome seen on the page as its polling brings it, without a reload: an order in Error resubmitted to
 * Processed; an operation paused, orders parked on it, resumed and finished; a dead letter redriven into
 * an order.
 */
class ConsoleOperatorIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String MARKER = "window.overseerConsoleTest";

    @AfterEach
    void resumeWhatATestPaused() {
        Http.Credentials operator = TestStack.credentials(TestStack.OPERATOR);
        for (String scope : List.of("charge-payment", "all")) {
            Http.post(admin("pauses/" + scope + "/resume"), "application/json", "{\"reason\":\"test cleanup\"}", operator);
        }
    }

    @Test
    void anOperatorResubmitsAnOrderInErrorAndWatchesItReachProcessed() {
        simulator.fault("charge-payment", "fatal", 1.0, 0);
        String orderId = api.submit("c-console-resubmit", "single-charge");
        api.awaitState(orderId, WAIT, "Error");
        simulator.clearFaults();

        try (Browser browser = Browser.open("operator")) {
            browser.signIn(console(), TestStack.OPERATOR);
            assertEquals("operator", browser.textOf(By.id("who-role")));
            browser.await(By.cssSelector("#alerts a[href='#/orders/" + orderId + "']"));
            browser.screenshot("overview");

            browser.go(console() + "#/orders?state=Error");
            browser.await(By.cssSelector("tr[data-order-id='" + orderId + "'] a")).click();
            browser.awaitText(By.id("order-state"), "Error");
            browser.screenshot("order-in-error");
            browser.script(MARKER + " = 'no reload'");

            browser.act(By.cssSelector("button[data-action=resubmit]"), "payment provider fixed");
            browser.awaitText(By.cssSelector(".notice"), "Resubmitted");
            browser.awaitText(By.id("order-state"), "Processed");
            browser.awaitText(By.id("history"), "payment provider fixed");
            assertEquals("no reload", browser.script("return " + MARKER), "the page was not reloaded");
            assertTrue(browser.all(By.cssSelector("button[data-action=resubmit]")).isEmpty(), "nothing to resubmit now");
            browser.screenshot("order-processed");
        }
        assertEquals("Processed", api.get(orderId).get("processState").asText());
    }

    @Test
    void aPausedOperationParksItsOrdersUntilResumed() {
        String customer = "c-console-pause-" + UUID.randomUUID().toString().substring(0, 8);
        try (Browser browser = Browser.open("operator")) {
            browser.signIn(console(), TestStack.OPERATOR);
            browser.go(console() + "#/pauses");
            browser.choose(By.id("pause-operation"), "charge-payment");
            browser.act(By.cssSelector("button[data-action=pause]"), "payment provider maintenance");
            browser.awaitText(By.cssSelector("tr[data-scope=charge-payment]"), "payment provider maintenance");

            List<String> orders = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                orders.add(api.submit(customer, "single-charge"));
            }
            browser.go(console() + "#/orders?customer=" + customer);
            for (String orderId : orders) {
                browser.awaitText(By.cssSelector("tr[data-order-id='" + orderId + "'] td:nth-child(6)"), "charge-payment");
                assertEquals("Pending", browser.textOf(By.cssSelector("tr[data-order-id='" + orderId + "'] td:nth-child(4)")));
            }
            browser.screenshot("orders-paused");
            browser.script(MARKER + " = 'no reload'");
            browser.go(console() + "#/orders/" + orders.get(0));
            browser.awaitText(By.id("order-paused-on"), "charge-payment");
            browser.awaitText(By.cssSelector("#steps tr[data-step=charge-payment] .paused-on"), "charge-payment");
            browser.screenshot("order-paused");

            browser.go(console() + "#/pauses");
            browser.awaitText(By.cssSelector("tr[data-scope=charge-payment] td:nth-child(5)"), "3");
            browser.screenshot("pauses");
            browser.act(By.cssSelector("tr[data-scope=charge-payment] button[data-action=resume]"), "maintenance over");
            browser.awaitGone(By.cssSelector("tr[data-scope=charge-payment]"));

            browser.go(console() + "#/orders?customer=" + customer);
            for (String orderId : orders) {
                browser.awaitText(By.cssSelector("tr[data-order-id='" + orderId + "'] td:nth-child(4)"), "Processed");
            }
            assertEquals("no reload", browser.script("return " + MARKER), "hash routes, not page loads");
            browser.screenshot("orders-resumed");

            browser.go(console() + "#/overview");
            browser.await(By.cssSelector("#counts .tile[data-state=Processed]"));
            browser.screenshot("overview-later");
            browser.go(console() + "#/audit");
            browser.awaitText(By.id("audit-table"), "maintenance over");
            browser.screenshot("audit");
            browser.go(console() + "#/instances");
            browser.await(By.cssSelector("#instances-table tbody tr"));
            // The database the instance reaches: the test stack's one server, the primary, no standby.
            browser.awaitText(By.id("database-server"), ":" + TestStack.postgres().port());
            browser.awaitText(By.id("database-role"), "primary");
            browser.screenshot("instances");
        }
    }

    /**
     * The schedules page (docs/schedules.md): a schedule created over the API is listed with its next ticks; an
     * operator pauses it with a reason, seen in its row, triggers its order now, which the orders listing finds
     * by the schedule's attribute, and resumes it.
     */
    @Test
    void anOperatorPausesTriggersAndResumesASchedule() {
        String id = "console-" + UUID.randomUUID().toString().substring(0, 8);
        Http.Credentials operator = TestStack.credentials(TestStack.OPERATOR);
        // Yearly, on 1 January at midnight: no tick of its own fires while the test runs.
        Http.Reply created = Http.post(admin("schedules"), "application/json", "{\"id\":\"" + id + "\",\"cron\":\"0 0 1 1 *\","
                + "\"order\":{\"customerId\":\"c-console-schedule\",\"items\":[{\"sku\":\"s-1\",\"quantity\":1}],"
                + "\"workflow\":\"single-charge\"}}", operator);
        assertEquals(201, created.status(), created.body());
        try (Browser browser = Browser.open("operator")) {
            browser.signIn(console(), TestStack.OPERATOR);
            browser.go(console() + "#/schedules");
            browser.awaitText(By.cssSelector("tr[data-schedule='" + id + "']"), "cron 0 0 1 1 *");
            browser.act(By.cssSelector("tr[data-schedule='" + id + "'] button[data-action=pause]"), "year-end freeze");
            browser.awaitText(By.cssSelector("tr[data-schedule='" + id + "']"), "year-end freeze");
            browser.act(By.cssSelector("tr[data-schedule='" + id + "'] button[data-action=trigger]"), "the auditors ask now");
            browser.go(console() + "#/orders?attribute=schedule:" + id);
            browser.await(By.cssSelector("#orders-table tbody tr"));
            browser.screenshot("schedule-triggered");
            browser.go(console() + "#/schedules");
            browser.act(By.cssSelector("tr[data-schedule='" + id + "'] button[data-action=resume]"), "freeze over");
            browser.await(By.cssSelector("tr[data-schedule='" + id + "'] button[data-action=pause]"));
        } finally {
            Http.send(Http.authorized(java.net.http.HttpRequest.newBuilder(admin("schedules/" + id)).DELETE(), operator));
        }
    }

    /**
     * Issue 29: after an outage of the payment provider, {@value #BULK_ORDERS} orders in Error; the fault
     * healed, the operator filters them in the listing (state and a business attribute), previews the bulk
     * resubmit, confirms it with a reason, and watches the job's page count them to the end. Each order is
     * then Processed, charged once, resubmitted once by the job.
     */
    @Test
    void anOperatorBulkResubmitsHundredsOfOrdersInErrorFromTheListing() {
        String batch = "outage-" + UUID.randomUUID().toString().substring(0, 8);
        simulator.fault("charge-payment", "fatal", 1.0, 0);
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < BULK_ORDERS; i++) {
            orders.add(api.submitWithAttributes("c-console-bulk-" + i, "single-charge", "{\"batch\":\"" + batch + "\"}"));
        }
        orders.forEach(id -> api.awaitState(id, WAIT, "Error"));
        simulator.clearFaults();

        try (Browser browser = Browser.open("operator")) {
            browser.signIn(console(), TestStack.OPERATOR);
            browser.go(console() + "#/orders?state=Error&attribute=batch:" + batch);
            browser.await(By.cssSelector("tr[data-order-id='" + orders.get(0) + "']"));
            browser.await(By.cssSelector("button[data-bulk=resubmit]")).click();
            browser.awaitText(By.id("action-what"), BULK_ORDERS + " orders match");
            assertEquals(10, browser.all(By.cssSelector("#action-sample li")).size(), "a sample of ten");
            assertTrue(browser.all(By.id("action-everything-box")).get(0).getAttribute("hidden") != null,
                    "filtered: no need to confirm everything");
            browser.screenshot("bulk-preview");
            browser.driver().findElement(By.id("action-reason")).sendKeys("payment provider healed");
            browser.driver().findElement(By.id("action-submit")).click();

            browser.awaitText(By.cssSelector("#bulk-total"), String.valueOf(BULK_ORDERS));
            browser.awaitText(By.cssSelector("#bulk-state"), "Finished");
            assertEquals(String.valueOf(BULK_ORDERS), browser.textOf(By.id("bulk-done")));
            assertEquals("0", browser.textOf(By.id("bulk-skipped")));
            assertEquals("0", browser.textOf(By.id("bulk-failed")));
            browser.screenshot("bulk-job-finished");
            browser.go(console() + "#/bulk");
            browser.await(By.cssSelector("#bulk-table tbody tr"));
            browser.screenshot("bulk-jobs");
        }
        for (String orderId : orders) {
            api.awaitState(orderId, WAIT, "Processed");
            assertEquals(1, simulator.effects(orderId).size(), "charged once: " + orderId);
            long resubmits = 0;
            for (var entry : api.history(orderId)) {
                resubmits += "operator".equals(entry.path("actor").asText()) && "Pending".equals(entry.path("to").asText())
                        && entry.path("reason").asText().endsWith(": payment provider healed") ? 1 : 0;
            }
            assertEquals(1, resubmits, "resubmitted once, by the job: " + orderId);
        }
    }

    /** With no filter the console asks whether every order is meant, and does nothing until told. */
    @Test
    void aBulkActionWithoutAFilterAsksWhetherEveryOrderIsMeant() {
        try (Browser browser = Browser.open("operator")) {
            browser.signIn(console(), TestStack.OPERATOR);
            browser.go(console() + "#/orders");
            browser.await(By.cssSelector("button[data-bulk=cancel]")).click();
            browser.await(By.id("action-everything-box"));
            browser.awaitText(By.id("action-what"), "match");
            assertTrue(browser.driver().findElement(By.id("action-everything-box")).isDisplayed(), "asks");
            browser.driver().findElement(By.id("action-reason")).sendKeys("clean everything");
            browser.driver().findElement(By.id("action-submit")).click();
            browser.awaitText(By.id("action-problem"), "tick the box");
            browser.screenshot("bulk-everything-refused");
            browser.driver().findElement(By.id("action-cancel")).click();
        }
        Http.Reply refused = Http.post(admin("bulk-jobs"), "application/json",
                "{\"action\":\"cancel\",\"reason\":\"clean everything\"}", TestStack.credentials(TestStack.OPERATOR));
        assertEquals(400, refused.status(), "the server refuses it too: " + refused.body());
    }

    private static final int BULK_ORDERS = 200;

    /**
     * A valid order dead-lettered while something it needed was down: put in the DLQ as the broker marks
     * what it dead-letters (original address and queue), the test's stand-in for that outage. Redriven
     * from the page, it goes back to the order queue and becomes an order.
     */
    @Test
    void aRedrivenDeadLetterBecomesAnOrder() throws Exception {
        String customer = "c-console-redrive-" + UUID.randomUUID().toString().substring(0, 8);
        DeadLetterQueue.putOrder(customer, "the state store was unreachable (test)");

        try (Browser browser = Browser.open("operator")) {
            browser.signIn(console(), TestStack.OPERATOR);
            browser.go(console() + "#/queues");
            By row = By.xpath("//table[@id='dead-letters']//tr[td[contains(., '" + customer + "')]]");
            browser.await(row);
            browser.awaitText(row, "the state store was unreachable");
            browser.screenshot("queues");
            String messageId = browser.driver().findElement(row).getAttribute("data-message-id");

            browser.act(By.cssSelector("tr[data-message-id='" + messageId + "'] button[data-action=redrive]"),
                    "the state store is back");
            browser.awaitText(By.cssSelector(".notice"), "redriven");
            browser.awaitGone(By.cssSelector("tr[data-message-id='" + messageId + "']"));

            String orderId = TestStack.awaitOrderOf(customer, WAIT);
            browser.go(console() + "#/orders/" + orderId);
            browser.awaitText(By.id("order-state"), "Processed");
            browser.screenshot("order-redriven");

            // Issue 29: the dead letters of one outage redriven at once, as a bulk job, by their reason.
            String outage = "outage " + UUID.randomUUID().toString().substring(0, 8);
            List<String> customers = List.of(customer + "-bulk-1", customer + "-bulk-2");
            for (String each : customers) {
                DeadLetterQueue.putOrder(each, "the state store was unreachable (" + outage + ")");
            }
            browser.go(console() + "#/queues");
            browser.await(By.xpath("//table[@id='dead-letters']//tr[td[contains(., '" + customers.get(1) + "')]]"));
            browser.await(By.id("bulk-dlq-reason")).sendKeys(outage);
            browser.driver().findElement(By.cssSelector("#bulk-dlq button[data-bulk=redrive]")).click();
            browser.awaitText(By.id("action-what"), "2 dead letters match");
            browser.driver().findElement(By.id("action-reason")).sendKeys("the state store is back");
            browser.driver().findElement(By.id("action-submit")).click();
            browser.awaitText(By.id("bulk-state"), "Finished");
            assertEquals("2", browser.textOf(By.id("bulk-done")));
        }
        for (String each : List.of(customer + "-bulk-1", customer + "-bulk-2")) {
            api.awaitState(TestStack.awaitOrderOf(each, WAIT), WAIT, "Processed");
        }
    }

    private URI console() {
        return root.resolve("console/");
    }

    private URI admin(String path) {
        return root.resolve("api/admin/" + path);
    }
}
