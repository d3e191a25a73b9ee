package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppRuntime;
import io.overseer.launcher.AppServerConfig;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.Browser;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import io.overseer.support.Traces;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * Issue 28 on two WildFly instances sharing the test stack's database, broker and Zipkin (RuntimesIT traces
 * one instance of every runtime; FencingIT a take-over on Payara Micro): an order submitted with the
 * caller's traceparent whose only step's call hangs; the instance running the attempt is killed -9 mid-call;
 * the broker hands its request to the other instance, whose call hangs as well, until the supervisor there sees
 * the attempt expire and retries it. The order is still one
 * trace, the caller's: the first attempt's dispatch from the dead instance, the survivor's decision and its
 * attempt under the same submission span, and the simulator saw the trace on both calls.
 *
 * <p>Then, on the survivor, the two orders docs/tracing.md shows, in Zipkin's UI in headless Chromium (saved
 * under target/screenshots/, from which docs/images/ takes them): a three-step order, and one whose charge is
 * retried and whose shipping is refused, so that it is undone and ends Compensated.
 */
class TracingIT {

    private static final Logger LOG = Logger.getLogger(TracingIT.class.getName());
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final List<String> STEPS = List.of("reserve-inventory", "charge-payment", "arrange-shipping");
    /**
     * Long enough for the first attempt's dispatch span to reach Zipkin (a batch a second) before its instance
     * is killed, yet short enough for the survivor's supervisor to retry within the test.
     */
    private static final Map<String, String> SETTINGS = Map.of("overseer.scheduler.complete-by", "PT10S",
            "overseer.supervisor.max-retries", "5");

    private final List<AppServerNode> servers = new ArrayList<>();
    private final SimulatorApi simulator = TestStack.simulator();

    @AfterEach
    void stopServers() {
        simulator.clearFaults();
        SystemServers.stopAll(servers);
    }

    @Test
    void anAttemptWhoseInstanceDiesMidCallIsRetriedOnTheOtherInTheSameTrace() throws Exception {
        Traces traces = new Traces(TestStack.tracing().zipkinUrl());
        simulator.clearFaults();
        servers.add(wildFly("trace-wf-a"));
        servers.add(wildFly("trace-wf-b"));
        SystemServers.startAll(servers);

        long faults = simulator.stats().get("faultsInjected").asLong();
        simulator.fault("charge-payment", "hang", 1.0, 0);
        String callerTrace = hex(32);
        Http.Reply accepted = submit(api(servers.get(0)), "c-trace-kill", "single-charge",
                "00-" + callerTrace + "-" + hex(16) + "-01");
        assertEquals(202, accepted.status(), accepted.body());
        String orderId = accepted.json().get("orderId").asText();
        Poll.until("the first call to hang at the simulator", WAIT,
                () -> simulator.stats().get("faultsInjected").asLong() > faults);
        String owner = lockedBy(orderId);
        AppServerNode running = servers.stream().filter(s -> s.name().equals(owner)).findFirst()
                .orElseThrow(() -> new AssertionError("the attempt's owner " + owner + " is one of the two instances"));
        AppServerNode survivor = servers.get(0) == running ? servers.get(1) : servers.get(0);
        // Its dispatch span reaches the viewer before the kill; its agent's span, open in the call, never will.
        traces.awaitOrderTrace(orderId, WAIT, "the first attempt's dispatch",
                spans -> Traces.find(spans, "dispatch charge-payment").isPresent());
        running.kill9();
        LOG.info("Killed " + owner + " mid-call; " + survivor.name() + " takes over order " + orderId);
        // The broker gives the dead instance's unacknowledged request to the survivor, whose call hangs too,
        // until the attempt's complete-by passes and the survivor's supervisor starts a second attempt.
        Poll.until("the survivor's supervisor to retry the expired attempt", WAIT,
                () -> api(survivor).get(orderId).get("steps").get(0).get("attempts").asInt() >= 2);
        simulator.clearFaults();

        JsonNode order = api(survivor).awaitState(orderId, WAIT, "Processed", "Error");
        assertEquals("Processed", order.get("processState").asText(), order.toString());
        List<Traces.SpanView> spans = traces.awaitOrderTrace(orderId, WAIT, "the survivor's attempt and the end",
                Traces.finished("Processed"));
        assertEquals(callerTrace, spans.get(0).traceId(), "the caller's trace: " + spans);
        List<Traces.SpanView> dispatches = Traces.assertStepAttempts(spans, orderId, List.of("charge-payment"),
                "Processed", true);
        assertTrue(dispatches.size() >= 2, "both attempts: " + spans);
        assertEquals(owner, dispatches.get(0).tag("overseer.instance"), "the first by the killed instance: " + spans);
        assertEquals(survivor.name(), dispatches.get(dispatches.size() - 1).tag("overseer.instance"),
                "the last by the survivor: " + spans);
        Traces.SpanView expiry = Traces.named(spans, "supervisor: charge-payment expired");
        assertEquals(survivor.name(), expiry.tag("overseer.instance"), expiry.toString());
        assertTrue(expiry.timestamp() > dispatches.get(0).timestamp(), "the decision after the first attempt");
        Traces.assertCallsCarriedTheTrace(simulator, orderId, spans, 2, true);
        assertEquals(1, simulator.effects(orderId).size(), "applied once");

        screenshots(traces, survivor);
    }

    /** The two traces docs/tracing.md shows, in Zipkin's own UI. */
    private void screenshots(Traces traces, AppServerNode server) {
        OrdersApi api = api(server);
        String processed = api.submit("c-trace-shown");
        assertEquals("Processed", api.awaitState(processed, WAIT, "Processed", "Error", "Compensated")
                .get("processState").asText());

        simulator.fault("charge-payment", "hang", 1.0, 0);
        String undone = api.submit("c-trace-undone");
        Poll.until("the supervisor to retry the hanging charge", WAIT,
                () -> api.get(undone).get("steps").get(1).get("attempts").asInt() >= 2);
        simulator.clearFaults();
        simulator.fault("arrange-shipping", "fatal", 1.0, 0);
        assertEquals("Compensated", api.awaitState(undone, WAIT, "Processed", "Error", "Compensated")
                .get("processState").asText());
        simulator.clearFaults();

        String processedTrace = traces.awaitOrderTrace(processed, WAIT, "its end", Traces.finished("Processed"))
                .get(0).traceId();
        List<Traces.SpanView> undoneSpans = traces.awaitOrderTrace(undone, WAIT, "its end", Traces.finished("Compensated"));
        assertTrue(Traces.find(undoneSpans, "dispatch undo charge-payment").isPresent(), "the refund: " + undoneSpans);
        Browser.requireInstalled();
        try (Browser browser = Browser.open("tracing")) {
            Path shown = show(browser, traces, processedTrace, "three-step-order", "arrange-shipping");
            Path compensated = show(browser, traces, undoneSpans.get(0).traceId(), "retried-compensated-order",
                    "supervisor: charge-payment expired");
            LOG.info("Screenshots: " + shown + ", " + compensated);
        }
    }

    private static Path show(Browser browser, Traces traces, String traceId, String page, String lastSpan) {
        // Tall enough for the compensated order's 30-odd spans: Zipkin's list shows (and holds in the page) only
        // the rows that fit.
        browser.driver().manage().window().setSize(new org.openqa.selenium.Dimension(1400, 1500));
        browser.go(traces.uiUrl(traceId));
        try {
            browser.awaitText(By.tagName("body"), lastSpan);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " (what it showed: " + browser.screenshot(page + "-failed") + ")", e);
        }
        return browser.screenshot(page);
    }

    private static AppServerNode wildFly(String name) throws Exception {
        Map<String, String> properties = new HashMap<>(TestStack.appProperties());
        properties.putAll(SETTINGS);
        properties.put("overseer.instance-id", name);
        properties.putAll(TestStack.tracing().appProperties(name));
        AppServerConfig config = TestStack.serverConfig(RuntimesIT.httpPort(AppRuntime.WILDFLY), "127.0.0.1", properties);
        Path dir = TestStack.workDir().resolve(name);
        AppServerNode server = AppRuntime.WILDFLY.newNode(TestStack.layout(), name, dir, dir.resolve(name + ".log"), config);
        TestStack.USERS.forEach(server::addRealmUser);
        return server;
    }

    private static OrdersApi api(AppServerNode server) {
        return new OrdersApi(URI.create(server.baseUrl()));
    }

    private static Http.Reply submit(OrdersApi api, String customerId, String workflow, String traceparent) {
        HttpRequest.Builder request = HttpRequest.newBuilder(api.base().resolve("api/orders"))
                .header("Content-Type", "application/json").header("traceparent", traceparent)
                .POST(HttpRequest.BodyPublishers.ofString(OrdersApi.order(customerId, workflow)));
        return Http.send(Http.authorized(request, api.credentials()));
    }

    private static String lockedBy(String orderId) {
        try (Connection db = TestStack.db();
             PreparedStatement query = db.prepareStatement("SELECT locked_by FROM order_state WHERE order_id = ?")) {
            query.setString(1, orderId);
            try (ResultSet rows = query.executeQuery()) {
                String owner = rows.next() ? rows.getString(1) : null;
                assertNotNull(owner, "order " + orderId + " is claimed");
                return owner;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(int length) {
        StringBuilder hex = new StringBuilder();
        while (hex.length() < length) {
            hex.append(Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE));
        }
        String value = hex.substring(0, length);
        assertNotEquals("0".repeat(length), value);
        return value;
    }
}
