package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.support.Browser;
import io.overseer.support.Http;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import jakarta.jms.TextMessage;
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
     * A valid order dead-lettered while something it needed was down: put in the DLQ as the broker marks
     * what it dead-letters (original address and queue), the test's stand-in for that outage. Redriven
     * from the page, it goes back to the order queue and becomes an order.
     */
    @Test
    void aRedrivenDeadLetterBecomesAnOrder() throws Exception {
        String customer = "c-console-redrive-" + UUID.randomUUID().toString().substring(0, 8);
        try (var factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext()) {
            TextMessage message = jms.createTextMessage(io.overseer.support.OrdersApi.order(customer, "A-1", 1));
            message.setStringProperty("_AMQ_ORIG_ADDRESS", "orders");
            message.setStringProperty("_AMQ_ORIG_QUEUE", "orders");
            message.setStringProperty("dlqReason", "the state store was unreachable (test)");
            message.setStringProperty("dlqOriginalDestination", "orders");
            jms.createProducer().send(jms.createQueue("DLQ"), message);
        }

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
        }
    }

    private URI console() {
        return root.resolve("console/");
    }

    private URI admin(String path) {
        return root.resolve("api/admin/" + path);
    }
}
