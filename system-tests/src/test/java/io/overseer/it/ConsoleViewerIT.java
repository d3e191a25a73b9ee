package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.support.Browser;
import io.overseer.support.Http;
import io.overseer.support.TestStack;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The console in a real browser as a viewer: the order, its steps and its history are there, no action
 * button is (absent, not disabled), and the server refuses the actions to the same credentials anyway.
 * Also how the console's files are served: confined by their headers, no login needed for them.
 */
class ConsoleViewerIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final By ACTIONS = By.cssSelector("button[data-action]");

    @Test
    void aViewerReadsAnOrderAndItsHistoryAndFindsNoActions() {
        String customer = "c-console-viewer";
        String orderId = api.submit(customer);
        api.awaitState(orderId, WAIT, "Processed");

        try (Browser browser = Browser.open("viewer")) {
            browser.signIn(console(), TestStack.VIEWER);
            assertEquals("viewer", browser.textOf(By.id("who-role")));
            browser.await(By.cssSelector("#counts .tile[data-state=Processed]"));
            assertNoActions(browser, "overview");
            browser.screenshot("overview");

            browser.go(console() + "#/orders?customer=" + customer);
            browser.await(By.cssSelector("tr[data-order-id='" + orderId + "'] a")).click();
            browser.awaitText(By.id("order-state"), "Processed");
            assertEquals(orderId, browser.textOf(By.id("order-id")));
            assertEquals("order (version " + api.get(orderId).get("workflowVersion").asText() + ")",
                    browser.textOf(By.id("order-workflow")), "the definition's version the order ran under");
            assertEquals(List.of("reserve-inventory", "charge-payment", "arrange-shipping"),
                    browser.all(By.cssSelector("#steps tbody tr td:nth-child(2)")).stream().map(e -> e.getText()).toList());
            assertTrue(browser.all(By.cssSelector("#history li")).size() >= 7, browser.textOf(By.id("history")));
            assertTrue(browser.textOf(By.id("calls")).contains("charge-payment"), browser.textOf(By.id("calls")));
            assertNoActions(browser, "order");
            browser.screenshot("order");

            browser.go(console() + "#/orders");
            browser.awaitText(By.id("updated"), "updated");
            assertTrue(browser.all(By.id("bulk-bar")).isEmpty() && browser.all(By.cssSelector("input.pick")).isEmpty(),
                    "no bulk action, no selection for a viewer");
            for (String page : List.of("queues", "pauses", "instances", "audit", "bulk")) {
                browser.go(console() + "#/" + page);
                browser.awaitText(By.id("updated"), "updated");
                assertNoActions(browser, page);
                assertTrue(browser.all(By.id("pause-operation")).isEmpty(), "no pause form for a viewer");
                browser.screenshot(page);
            }
        }

        Http.Credentials viewer = TestStack.credentials(TestStack.VIEWER);
        for (String action : List.of("orders/" + orderId + "/resubmit", "orders/" + orderId + "/cancel", "pauses",
                "pauses/all/resume", "dead-letters/redrive", "dead-letters/1/redrive", "dead-letters/1/delete",
                "bulk-jobs", "bulk-jobs/preview", "bulk-jobs/1/cancel")) {
            Http.Reply reply = Http.post(admin(action), "application/json",
                    "{\"scope\":\"all\",\"reason\":\"a viewer tries\"}", viewer);
            assertEquals(403, reply.status(), action + ": " + reply.body());
        }
    }

    /**
     * Issue 29: the listing's attribute filter, typed into the console's form, shows exactly the orders with
     * that business attribute, and an order's page shows its attributes.
     */
    @Test
    void anAttributeFilterFindsExactlyTheMatchingOrders() {
        String merchant = "m-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        List<String> matching = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            matching.add(api.submitWithAttributes("c-console-attr-" + i, "{\"merchant\":\"" + merchant + "\",\"channel\":\"shop\"}"));
        }
        api.submitWithAttributes("c-console-attr-other", "{\"merchant\":\"x" + merchant + "\"}");
        api.submitWithAttributes("c-console-attr-none", null);

        try (Browser browser = Browser.open("viewer-attributes")) {
            browser.signIn(console(), TestStack.VIEWER);
            browser.go(console() + "#/orders");
            browser.await(By.id("filter-attribute")).sendKeys("merchant:" + merchant);
            browser.await(By.cssSelector("#order-filters button[type=submit]")).click();
            // The listing re-renders after the filter: wait for the filtered rows, then read them once more.
            io.overseer.support.Poll.until("the listing filtered by the attribute", WAIT,
                    () -> browser.driver().getCurrentUrl().contains("attribute=") && rows(browser).equals(matching));
            assertEquals(matching, rows(browser), "exactly the matching orders, oldest first");
            browser.screenshot("orders-by-attribute");

            browser.await(By.cssSelector("tr[data-order-id='" + matching.get(0) + "'] a")).click();
            browser.awaitText(By.id("order-attributes"), "merchant: " + merchant);
            assertEquals("channel: shop, merchant: " + merchant, browser.textOf(By.id("order-attributes")));
        }
    }

    private static List<String> rows(Browser browser) {
        try {
            return browser.all(By.cssSelector("#orders-table tbody tr[data-order-id]")).stream()
                    .map(row -> row.getAttribute("data-order-id")).toList();
        } catch (org.openqa.selenium.StaleElementReferenceException rerendered) {
            return List.of();
        }
    }

    @Test
    void theConsoleIsServedWithoutLoginAndConfined() {
        Http.Reply bare = Http.get(root.resolve("console"));
        assertEquals(302, bare.status(), bare.body());
        assertTrue(bare.location().endsWith("/console/"), bare.location());

        Http.Reply page = Http.get(console());
        assertEquals(200, page.status(), page.body());
        String policy = page.header("Content-Security-Policy");
        assertTrue(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'"), policy);
        assertFalse(policy.contains("unsafe-inline"), policy);
        assertEquals("nosniff", page.header("X-Content-Type-Options"));
        assertEquals("no-referrer", page.header("Referrer-Policy"));
        assertEquals("no-store", page.header("Cache-Control"));
        assertFalse(page.body().contains("<script>") || page.body().contains("style="), "no inline script or style");

        Http.Reply script = Http.get(console().resolve("console.js"));
        assertEquals(200, script.status());
        assertEquals("nosniff", script.header("X-Content-Type-Options"));
        assertFalse(script.body().contains("innerHTML"), "the console writes server text as text only");

        Http.Reply anonymous = Http.get(admin("overview"));
        assertEquals(401, anonymous.status(), "the data needs a login");
    }

    private URI console() {
        return root.resolve("console/");
    }

    private URI admin(String path) {
        return root.resolve("api/admin/" + path);
    }

    private static void assertNoActions(Browser browser, String page) {
        assertEquals(List.of(), browser.all(ACTIONS).stream().map(e -> e.getAttribute("data-action")).toList(),
                "a viewer's " + page + " page has no action button");
    }
}
