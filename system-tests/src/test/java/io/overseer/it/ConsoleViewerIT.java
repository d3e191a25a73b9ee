package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Browser;
import io.overseer.support.Http;
import io.overseer.support.Poll;
import io.overseer.support.Problems;
import io.overseer.support.TestStack;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The console in a real browser as a viewer: the order, its steps and its history are there, no action
 * button is (absent, not disabled), and the server refuses the actions to the same credentials anyway.
 * Also how the console's files are served: confined by their headers, no login needed for them.
 */
class ConsoleViewerIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final By ACTIONS = By.cssSelector("button[data-action]");
    /** A static import of a module of the console's own, by a relative URL. */
    private static final Pattern IMPORT = Pattern.compile("^import \\{[^}]*} from '(\\.{1,2}/[^']+)';$", Pattern.MULTILINE);

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
            browser.await(By.cssSelector("#store-tables tr[data-table=order_state]"));
            assertTrue(browser.textOf(By.id("store-total")).matches("[0-9.]+ (KiB|MiB|GiB) in all\\. Oldest finished order kept: .+\\."),
                    browser.textOf(By.id("store-total")));
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
            Poll.until("the listing filtered by the attribute", WAIT,
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

    /**
     * Issue 29, the workflow drawn: the admin API serves the sample {@code fulfilment} definition (404 problems
     * for an unknown workflow or version), and the console draws it with its parallel group's steps side by
     * side, between the steps before and after it.
     */
    @Test
    void theSampleWorkflowIsDrawnWithItsParallelGroupSideBySide() {
        Http.Credentials viewer = TestStack.credentials(TestStack.VIEWER);
        Http.Reply list = Http.get(admin("workflows"), viewer);
        assertEquals(200, list.status(), list.body());
        JsonNode fulfilment = null;
        for (JsonNode workflow : list.json().get("workflows")) {
            fulfilment = TestStack.SAMPLE_WORKFLOW.equals(workflow.get("name").asText()) ? workflow : fulfilment;
        }
        assertNotNull(fulfilment, list.body());
        String version = fulfilment.get("current").asText();
        Http.Reply definition = Http.get(admin("workflows/fulfilment/versions/" + version), viewer);
        assertEquals(200, definition.status(), definition.body());
        JsonNode steps = definition.json().get("steps");
        assertEquals("dispatch", steps.get(2).get("group").asText(), definition.body());
        assertEquals("refund-payment", steps.get(1).get("compensation").asText(), definition.body());
        assertEquals("PT3S", steps.get(1).get("completeBy").asText(), "the test servers' default complete-by");
        Problems.assertProblem(Http.get(admin("workflows/no-such-workflow"), viewer), 404);
        Problems.assertProblem(Http.get(admin("workflows/fulfilment/versions/000000000000"), viewer), 404);

        try (Browser browser = Browser.open("viewer-workflow")) {
            browser.signIn(console(), TestStack.VIEWER);
            browser.go(console() + "#/workflows");
            browser.await(By.cssSelector("#workflows-table tr[data-workflow=fulfilment] a")).click();
            browser.awaitText(By.id("workflow-version"), version);
            WebElement shipping = browser.await(node("workflow-graph", "arrange-shipping"));
            WebElement invoice = browser.await(node("workflow-graph", "issue-invoice"));
            assertEquals("dispatch", shipping.getAttribute("data-group"));
            assertEquals("dispatch", invoice.getAttribute("data-group"));
            assertEquals(shipping.getAttribute("data-y"), invoice.getAttribute("data-y"), "side by side: one row");
            assertTrue(x(invoice) >= x(shipping) + 150, "side by side: " + x(shipping) + " and " + x(invoice));
            assertTrue(y(browser.await(node("workflow-graph", "charge-payment"))) < y(shipping), "the group after charging");
            assertTrue(y(browser.await(node("workflow-graph", "send-confirmation"))) > y(shipping), "confirming after it");
            assertEquals(1, browser.all(By.cssSelector("#workflow-graph g.group[data-group=dispatch]")).size());
            assertEquals(1, browser.all(By.id("workflow-graph-undo")).size(), "the compensation path is drawn");
            String policy = browser.all(By.cssSelector("#workflow-graph g.node[data-step=charge-payment] > title")).get(0)
                    .getAttribute("textContent"); // the hover's text: present, never visible by itself
            assertTrue(policy.contains("undone by refund-payment") && policy.contains("retries: 3"), policy);
            browser.script("document.getElementById('workflow-graph').scrollIntoView()");
            browser.screenshot("workflow");

            browser.go(console() + "#/workflows/approved");
            WebElement wait = browser.await(node("workflow-graph", "await-approval"));
            assertEquals("event", wait.getAttribute("data-kind"), "an event wait is drawn as one");
            assertEquals("call", browser.await(node("workflow-graph", "charge-approved")).getAttribute("data-kind"));
            browser.screenshot("workflow-event");
        }
    }

    /**
     * Issue 29: an order's graph shows each step's live state, as the API reports it while a branch of the
     * parallel group is retried, and its timeline draws one bar per attempt (the retried branch's two or
     * more); a refused step is drawn Failed, and its undone predecessor's compensation has its own bar.
     */
    @Test
    void anOrdersGraphShowsEachStepsLiveStateAndItsTimelineEachAttempt() {
        simulator.fault("issue-invoice", "hang", 1.0, 0);
        String retried = api.submit("c-console-graph", TestStack.SAMPLE_WORKFLOW);

        try (Browser browser = Browser.open("viewer-graph")) {
            browser.signIn(console(), TestStack.VIEWER);
            browser.go(console() + "#/orders/" + retried);
            browser.await(node("order-graph", "issue-invoice"));
            Poll.until("the page to show the API's step states while the invoice is retried", WAIT,
                    () -> {
                        JsonNode order = api.get(retried);
                        Map<String, String> states = new LinkedHashMap<>();
                        order.get("steps").forEach(st -> states.put(st.get("name").asText(),
                                st.get("state").asText() + " ×" + st.get("attempts").asInt()));
                        return failures(order, "issue-invoice") >= 1 && states.equals(drawnStates(browser));
                    });
            Map<String, String> states = drawnStates(browser);
            for (String done : List.of("reserve-inventory", "charge-payment", "arrange-shipping")) {
                assertEquals("Completed ×1", states.get(done), states.toString());
                assertTrue(browser.await(node("order-graph", done)).getAttribute("class").contains("state-Completed"));
            }
            assertEquals("NotStarted ×0", states.get("send-confirmation"), states.toString());
            assertTrue(bars(browser, "issue-invoice").size() >= 2, "the expired attempt and its retry: " + states);
            assertEquals("Retried", bars(browser, "issue-invoice").get(0).getAttribute("data-outcome"));
            browser.script("document.getElementById('order-graph').scrollIntoView()");
            browser.screenshot("order-graph-retrying");

            simulator.clearFaults();
            api.awaitState(retried, WAIT, "Processed");
            browser.awaitText(By.id("order-state"), "Processed");
            Poll.until("every step drawn Completed", WAIT,
                    () -> drawnStates(browser).values().stream().allMatch(state -> state.startsWith("Completed ")));
            List<WebElement> invoiceBars = bars(browser, "issue-invoice");
            assertTrue(invoiceBars.size() >= 2, "one bar per attempt of the retried branch: " + invoiceBars.size());
            assertEquals("Retried", invoiceBars.get(0).getAttribute("data-outcome"));
            assertEquals("Completed", invoiceBars.get(invoiceBars.size() - 1).getAttribute("data-outcome"));
            assertEquals(1, bars(browser, "arrange-shipping").size(), "its sibling answered at once");
            browser.script("document.getElementById('order-timeline').scrollIntoView()");
            browser.screenshot("order-timeline");

            simulator.fault("charge-payment", "fatal", 1.0, 0);
            String refused = api.submit("c-console-graph-refused", TestStack.SAMPLE_WORKFLOW);
            api.awaitState(refused, WAIT, "Compensated");
            browser.go(console() + "#/orders/" + refused);
            browser.awaitText(By.id("order-state"), "Compensated");
            WebElement charge = browser.await(By.cssSelector("#order-graph g.node.state-Failed[data-step=charge-payment]"));
            assertEquals("Failed", charge.getAttribute("data-state"));
            assertEquals("Compensated", browser.await(node("order-graph", "reserve-inventory")).getAttribute("data-state"));
            assertEquals("NotStarted", browser.await(node("order-graph", "send-confirmation")).getAttribute("data-state"));
            assertEquals(1, browser.all(By.cssSelector(
                    "#order-timeline rect.attempt[data-step=reserve-inventory][data-kind=compensation]")).size());
            browser.script("document.getElementById('order-graph').scrollIntoView()");
            browser.screenshot("order-graph-refused");
        }
    }

    private static By node(String graph, String step) {
        return By.cssSelector("#" + graph + " g.node[data-step='" + step + "']");
    }

    private static double x(WebElement node) {
        return Double.parseDouble(node.getAttribute("data-x"));
    }

    private static double y(WebElement node) {
        return Double.parseDouble(node.getAttribute("data-y"));
    }

    private static int failures(JsonNode order, String step) {
        for (JsonNode st : order.get("steps")) {
            if (step.equals(st.get("name").asText())) {
                return st.get("failureCount").asInt();
            }
        }
        return 0;
    }

    private static Map<String, String> drawnStates(Browser browser) {
        Map<String, String> states = new LinkedHashMap<>();
        try {
            browser.all(By.cssSelector("#order-graph g.node")).forEach(n -> states.put(n.getAttribute("data-step"),
                    n.getAttribute("data-state") + " ×" + n.getAttribute("data-attempts")));
        } catch (org.openqa.selenium.StaleElementReferenceException redrawn) {
            return Map.of();
        }
        return states;
    }

    private static List<WebElement> bars(Browser browser, String step) {
        return browser.all(By.cssSelector("#order-timeline rect.attempt[data-step='" + step + "'][data-kind=call]"));
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

        assertTrue(page.body().contains("<script type=\"module\" src=\"console.js\"></script>"), page.body());
        Map<URI, Http.Reply> modules = modules(console().resolve("console.js"));
        assertTrue(modules.keySet().containsAll(List.of(console().resolve("lib/api.js"),
                console().resolve("pages/order.js"))), modules.keySet().toString());
        modules.forEach((uri, script) -> {
            assertEquals(200, script.status(), uri.toString());
            // a browser runs a module only if it comes as JavaScript (and nosniff forbids guessing)
            assertTrue(script.contentType().matches("(?i)(text|application)/javascript\\b.*"),
                    uri + ": " + script.contentType());
            assertEquals("nosniff", script.header("X-Content-Type-Options"), uri.toString());
            assertFalse(script.body().contains("innerHTML"), uri + ": the console writes server text as text only");
        });

        Http.Reply anonymous = Http.get(admin("overview"));
        assertEquals(401, anonymous.status(), "the data needs a login");
    }

    /** console.js and every module it imports, transitively, as the browser fetches them. */
    private static Map<URI, Http.Reply> modules(URI entry) {
        Map<URI, Http.Reply> found = new LinkedHashMap<>();
        Deque<URI> next = new ArrayDeque<>(List.of(entry));
        while (!next.isEmpty()) {
            URI uri = next.pop();
            if (!found.containsKey(uri)) {
                Http.Reply script = Http.get(uri);
                found.put(uri, script);
                Matcher imports = IMPORT.matcher(script.body());
                while (imports.find()) {
                    next.push(uri.resolve(imports.group(1)));
                }
            }
        }
        return found;
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
