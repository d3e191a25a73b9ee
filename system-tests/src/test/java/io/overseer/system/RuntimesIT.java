package io.overseer.system;

import static io.overseer.support.Problems.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppRuntime;
import io.overseer.launcher.AppServerConfig;
import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.PayaraServerNode;
import io.overseer.launcher.WildFlyNode;
import io.overseer.support.Http;
import io.overseer.support.JmsProtocol;
import io.overseer.support.ListeningSockets;
import io.overseer.support.Notification;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import io.overseer.support.Traces;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.TemporaryQueue;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * The same scenarios on every runtime ./run offers: the WAR on Payara Micro, the EAR on Payara Server and
 * the same EAR on WildFly, each started as ./run --runtime starts it (the runtime's node, server-config's
 * scripts) against the shared PostgreSQL, Artemis and simulator. Per runtime, in order: an order
 * Processed; a hanging call retried by the supervisor; a refused step compensated (refund before release);
 * an order from a legacy JMS client with its status notifications; 401 without credentials; kill -9 of the
 * server mid-flight and a restart, after which every accepted order is Processed and nothing applied twice.
 * On Payara Server also what EarOnPayaraServerIT checked with a domain of its own: nothing answers on the
 * HTTP port while the EAR deploys, health names the EAR's checks, and a DELETE with content is
 * authenticated before it is refused.
 */
class RuntimesIT {

    private static final Logger LOG = Logger.getLogger(RuntimesIT.class.getName());
    private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration WAIT = Duration.ofSeconds(120);
    /** The default "order" workflow's steps, in order. */
    private static final List<String> STEPS = List.of("reserve-inventory", "charge-payment", "arrange-shipping");
    private static final int CRASH_ORDERS = 20;
    /**
     * Where ./run --bind-address would put the HTTP API. Another loopback address, so that the test exposes
     * nothing, yet shows that only HTTP moves there and every other listener stays on 127.0.0.1.
     */
    private static final String BIND_ADDRESS = "127.0.0.2";

    @TestFactory
    Stream<DynamicNode> everyRuntime() {
        // -Doverseer.it.runtimes=wildfly,payara-server narrows a run by hand; CI runs every runtime.
        List<String> only = List.of(System.getProperty("overseer.it.runtimes", "").split(","));
        return Stream.of(AppRuntime.values()).filter(r -> only.equals(List.of("")) || only.contains(r.id())).map(runtime -> {
            Scenarios s = new Scenarios(runtime);
            String id = runtime.id();
            // Payara Server's own checks (formerly EarOnPayaraServerIT, which started a domain of its own).
            Stream<DynamicTest> payaraServerOnly = runtime != AppRuntime.PAYARA_SERVER ? Stream.empty() : Stream.of(
                    test(id + ": nothing answered on the HTTP port while the EAR deployed; health names the EAR's checks",
                            () -> s.ready().healthNamesTheApplicationsChecks()),
                    test(id + ": a DELETE with content is authenticated, then a problem",
                            () -> s.ready().aDeleteWithContentIsAuthenticatedThenAProblem()));
            return DynamicContainer.dynamicContainer(id, Stream.concat(Stream.of(
                    test(id + " starts", s::start),
                    test(id + ": only HTTP listens on the bind address, everything else on 127.0.0.1",
                            () -> s.ready().onlyHttpMovesToTheBindAddress()),
                    test(id + ": an order is Processed", () -> s.ready().anOrderIsProcessed()),
                    test(id + ": one trace per order, from the submitter's traceparent or a new one, a bad one ignored",
                            () -> s.ready().oneTracePerOrder())), Stream.concat(payaraServerOnly, Stream.of(
                    test(id + ": readiness shows the pool's connections end a transaction left idle 30 s",
                            () -> s.ready().idleTransactionsAreBounded()),
                    test(id + ": a hanging call is retried by the supervisor", () -> s.ready().aHangingCallIsRetried()),
                    test(id + ": a refused step is compensated, refund before release", () -> s.ready().aRefusedStepIsCompensated()),
                    test(id + ": a legacy JMS client's order, with notifications", () -> s.ready().aLegacyJmsClientsOrder()),
                    test(id + ": 401 without credentials, 403 without the role", () -> s.ready().unauthenticatedIsRefused()),
                    test(id + ": bad input is a 4xx problem and stores nothing", () -> s.ready().badInputIsAProblem()),
                    test(id + ": the admin API reads the broker and redrives a dead letter through management",
                            () -> s.ready().theAdminApiManagesTheBroker()),
                    test(id + ": the console is served, and a paused operation parks orders until resumed",
                            () -> s.ready().theConsoleAndPauses()),
                    test(id + ": kill -9 mid-flight, restart: all Processed, nothing twice", () -> s.ready().killNineAndRestart()),
                    test(id + " stops", s::stop)))));
        });
    }

    private static DynamicTest test(String name, Executable body) {
        return DynamicTest.dynamicTest(name, body);
    }

    /** One runtime's server and what is asked of it. */
    private static final class Scenarios {

        private final AppRuntime runtime;
        private AppServerNode server;
        private OrdersApi api;
        private final SimulatorApi simulator = TestStack.simulator();
        private Traces traces;
        /** What the HTTP port answered before the application's checks were in it; null if it answered nothing. */
        private final AtomicReference<String> earlyAnswer = new AtomicReference<>();

        Scenarios(AppRuntime runtime) {
            this.runtime = runtime;
        }

        void start() throws Exception {
            AppServerConfig config = TestStack.serverConfig(httpPort(runtime), BIND_ADDRESS, TestStack.appProperties());
            String name = "runtime-" + runtime.id();
            // Traced, as ./run --tracing runs it: the scenarios below read the orders' traces in Zipkin.
            traces = new Traces(TestStack.tracing().zipkinUrl());
            config = config.withAppProperties(TestStack.tracing().appProperties(name));
            Path dir = TestStack.workDir().resolve(name);
            server = runtime.newNode(TestStack.layout(), name, dir, dir.resolve(name + ".log"), config);
            TestStack.USERS.forEach(server::addRealmUser);
            simulator.clearFaults();
            long t0 = System.nanoTime();
            if (runtime == AppRuntime.PAYARA_SERVER) {
                startWatchingThePort();
            } else {
                server.start();
            }
            LOG.info(runtime.label() + " ready in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            api = new OrdersApi(URI.create(server.baseUrl()));
        }

        /** Each scenario needs the server its runtime's first test started: without it, it fails saying so. */
        Scenarios ready() {
            assertNotNull(server, runtime.id() + " did not start (see its first test)");
            assertTrue(server.isAlive(), runtime.id() + " is not running");
            simulator.clearFaults();
            return this;
        }

        void stop() {
            if (server != null) {
                server.stop();
            }
        }

        /**
         * Starts Payara Server as ./run starts it: the EAR deployed between server-config's http-closed and
         * http-open files, so that nothing answers on the HTTP port meanwhile (docs/health.md). Until start()
         * returns, any answer on the port must already name the application's checks.
         */
        private void startWatchingThePort() throws Exception {
            URI ready = URI.create(server.healthUrl() + "/ready");
            Thread watcher = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        HttpResponse<String> r = PROBE.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(5)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (!r.body().contains("\"application\"")) {
                            earlyAnswer.compareAndSet(null, r.statusCode() + " " + r.body());
                        }
                        Thread.sleep(200);
                    } catch (IOException refused) {
                        try {
                            Thread.sleep(200);
                        } catch (InterruptedException e) {
                            return;
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "http-port-watcher");
            watcher.setDaemon(true);
            watcher.start();
            try {
                server.start();
            } finally {
                watcher.interrupt();
                watcher.join();
            }
        }

        /** The EAR's own checks appear in Payara Server's health endpoints, and say UP. */
        void healthNamesTheApplicationsChecks() {
            assertNull(earlyAnswer.get(), "nothing answered on the HTTP port while the EAR was deployed");
            URI health = URI.create(server.healthUrl() + "/");
            Poll.until("readiness UP on " + runtime.label(), WAIT, () -> Http.get(health.resolve("ready")).status() == 200);
            Http.Reply ready = Http.get(health.resolve("ready"));
            Http.Reply live = Http.get(health.resolve("live"));
            for (String check : List.of("application", "database", "broker")) {
                assertTrue(ready.body().contains("\"" + check + "\""), ready.body());
            }
            assertEquals(200, live.status(), live.body());
            for (String check : List.of("workers", "database-pool")) {
                assertTrue(live.body().contains("\"" + check + "\""), live.body());
            }
        }

        /**
         * What the server itself answers, rather than the application, is set up on Payara Server as on Micro:
         * content on a DELETE reaches authentication (post-boot.asadmin) and is refused as a problem.
         */
        void aDeleteWithContentIsAuthenticatedThenAProblem() {
            assertProblem(Http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/orders/x"))
                    .header("Content-Type", "application/json").method("DELETE", HttpRequest.BodyPublishers.ofString("{}"))), 401);
        }

        void onlyHttpMovesToTheBindAddress() throws Exception {
            ListeningSockets sockets = ListeningSockets.of(List.of(server.pid()));
            LOG.info(runtime.label() + " listens on " + sockets.sockets());
            int http = server.config().httpPort();
            // WildFly's -b moves its HTTPS listener with HTTP: both are the HTTP API.
            Set<Integer> api = runtime == AppRuntime.WILDFLY ? Set.of(http, WildFlyNode.serverPorts(http).get("HTTPS"))
                    : Set.of(http);
            assertEquals(api, sockets.on(BIND_ADDRESS).stream().map(ListeningSockets.Socket::port)
                    .collect(Collectors.toSet()), sockets.toString());
            List<ListeningSockets.Socket> elsewhere = sockets.sockets().stream()
                    .filter(socket -> !socket.address().equals(BIND_ADDRESS) && !socket.address().equals("127.0.0.1"))
                    .toList();
            assertTrue(elsewhere.isEmpty(), "neither on the bind address nor on 127.0.0.1: " + elsewhere);
            assertTrue(sockets.on("127.0.0.1").stream().noneMatch(socket -> api.contains(socket.port())), sockets.toString());
        }

        void anOrderIsProcessed() {
            String orderId = api.submit("c-rt-" + runtime.id());
            JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            assertEquals(STEPS, operations(orderId));
            // Stateless on every runtime: no HTTP session or single sign-on entry left behind per request.
            Http.Reply read = Http.get(api.base().resolve("api/orders/" + orderId), TestStack.credentials(TestStack.VIEWER));
            assertEquals(200, read.status(), read.body());
            assertEquals(List.of(), read.headers().allValues("Set-Cookie"), "no cookie: " + read.headers().map());
        }

        /**
         * server-config's pool settings reach PostgreSQL on this runtime: a new connection sets
         * idle_in_transaction_session_timeout, which readiness reads back through the application's pool.
         */
        void idleTransactionsAreBounded() {
            Http.Reply ready = Http.get(URI.create(server.healthUrl() + "/ready"));
            assertEquals(200, ready.status(), ready.body());
            JsonNode database = null;
            for (JsonNode check : ready.json().path("checks")) {
                if ("database".equals(check.path("name").asText())) {
                    database = check;
                }
            }
            assertNotNull(database, ready.body());
            assertEquals("30s", database.path("data").path("idleTransactionTimeout").asText(), ready.body());
            assertEquals("primary", database.path("data").path("role").asText(), ready.body());
            assertEquals(TestStack.postgres().port(), Integer.parseInt(database.path("data").path("server").asText()
                    .replaceAll(".*:", "")), "the server that answered: " + ready.body());
        }

        /**
         * The second step's first call hangs past its complete-by; the supervisor takes the expired attempt
         * back and a second attempt, once the hang is lifted, finishes the order. The call applied once.
         */
        void aHangingCallIsRetried() {
            long faults = simulator.stats().get("faultsInjected").asLong();
            simulator.fault("charge-payment", "hang", 1.0, 0);
            String orderId = api.submit("c-rt-hang-" + runtime.id());
            Poll.until("the first charge to hang at the simulator", WAIT,
                    () -> simulator.stats().get("faultsInjected").asLong() > faults);
            // Lifting the hang answers the calls it holds: only once the supervisor has taken the expired
            // attempt back and started another is the first one's answer too late to count.
            Poll.until("the supervisor to start a second charge attempt", WAIT,
                    () -> api.get(orderId).get("steps").get(1).get("attempts").asInt() >= 2);
            simulator.clearFaults();
            JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            JsonNode charge = order.get("steps").get(1);
            assertEquals("charge-payment", charge.get("name").asText());
            assertTrue(charge.get("attempts").asInt() >= 2, "the hanging attempt was retried: " + charge);
            assertEquals(STEPS, operations(orderId), "each call applied once");
            // Issue 28: the retry is in the order's one trace, after the supervisor's decision.
            List<Traces.SpanView> spans = traces.awaitOrderTrace(orderId, WAIT, "its final transition",
                    Traces.finished("Processed"));
            List<Traces.SpanView> dispatches = Traces.assertStepAttempts(spans, orderId, STEPS, "Processed");
            List<Traces.SpanView> charges = dispatches.stream()
                    .filter(d -> "charge-payment".equals(d.tag("overseer.operation"))).toList();
            assertTrue(charges.size() >= 2, "both charge attempts: " + spans);
            assertEquals(List.of("1", "2"), charges.subList(0, 2).stream().map(d -> d.tag("overseer.attempt")).toList());
            Traces.SpanView expiry = Traces.named(spans, "supervisor: charge-payment expired");
            assertTrue(expiry.tag("overseer.outcome").startsWith("retry"), expiry.toString());
            assertTrue(charges.get(0).timestamp() < expiry.timestamp() && expiry.timestamp() < charges.get(1).timestamp(),
                    "the supervisor's decision between the attempts: " + spans);
            Traces.assertCallsCarriedTheTrace(simulator, orderId, spans, STEPS.size() + 1, false);
        }

        /**
         * Issue 28: orders submitted with the caller's W3C traceparent, without one, and with a malformed one and
         * a hostile tracestate (accepted all the same, in a trace of their own). Each order is one trace in the
         * viewer: the HTTP server span, the submission under it, and each step's dispatch, the agent's span, its
         * call and the reply's application in the workflow's order, the final transition last; the simulator saw
         * the trace on every call, from the agent's call span.
         */
        void oneTracePerOrder() {
            String callerTrace = randomHex(32);
            String callerSpan = randomHex(16);
            Http.Reply withParent = submit("c-rt-traced-" + runtime.id(),
                    Map.of("traceparent", "00-" + callerTrace + "-" + callerSpan + "-01"));
            Http.Reply without = submit("c-rt-untraced-" + runtime.id(), Map.of());
            Http.Reply bad = submit("c-rt-badtrace-" + runtime.id(), Map.of(
                    "traceparent", "00-" + "A".repeat(32) + "-" + callerSpan + "-01" + "x".repeat(2_000),
                    "tracestate", "k=" + "v".repeat(2_000) + ",=,==,K@Y=x y"));
            for (Http.Reply reply : List.of(withParent, without, bad)) {
                assertEquals(202, reply.status(), reply.body());
            }
            String tracedId = withParent.json().get("orderId").asText();
            List<Traces.SpanView> traced = orderTrace(tracedId);
            assertEquals(callerTrace, traced.get(0).traceId(), "the order joined the submitter's trace: " + traced);
            Traces.SpanView server = serverSpanOf(traced);
            assertEquals(callerSpan, server.parentId(), "the HTTP server span is the caller's child: " + server);

            for (Http.Reply reply : List.of(without, bad)) {
                String orderId = reply.json().get("orderId").asText();
                List<Traces.SpanView> spans = orderTrace(orderId);
                assertNotEquals(callerTrace, spans.get(0).traceId());
                assertEquals(null, serverSpanOf(spans).parentId(), "a trace of its own, rooted at the request: " + spans);
            }
            Traces.assertCallsCarriedTheTrace(simulator, tracedId, traced, STEPS.size(), false);
        }

        private List<Traces.SpanView> orderTrace(String orderId) {
            JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            List<Traces.SpanView> spans = traces.awaitOrderTrace(orderId, WAIT, "its final transition",
                    Traces.finished("Processed"));
            Traces.assertStepAttempts(spans, orderId, STEPS, "Processed");
            return spans;
        }

        /** The HTTP server span the submission span is a child of (MicroProfile Telemetry's, for JAX-RS). */
        private static Traces.SpanView serverSpanOf(List<Traces.SpanView> spans) {
            Traces.SpanView submit = Traces.named(spans, "submit order");
            return spans.stream().filter(s -> s.id().equals(submit.parentId()) && "SERVER".equals(s.kind())).findFirst()
                    .orElseThrow(() -> new AssertionError("the submission's parent is the server span: " + spans));
        }

        private Http.Reply submit(String customerId, Map<String, String> headers) {
            HttpRequest.Builder request = HttpRequest.newBuilder(api.base().resolve("api/orders"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(OrdersApi.order(customerId, "A-1", 1)));
            headers.forEach(request::header);
            return Http.send(Http.authorized(request, api.credentials()));
        }

        private static String randomHex(int length) {
            StringBuilder hex = new StringBuilder();
            while (hex.length() < length) {
                hex.append(Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE));
            }
            return hex.substring(0, length);
        }

        void aRefusedStepIsCompensated() {
            simulator.fault("arrange-shipping", "fatal", 1.0, 0);
            String orderId = api.submit("c-rt-comp-" + runtime.id());
            JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
            assertEquals("Compensated", order.get("processState").asText(), order.toString());
            assertEquals(List.of("reserve-inventory", "charge-payment", "refund-payment", "release-inventory"),
                    operations(orderId), "undone in reverse order: the refund before the release");
        }

        /** Artemis Core with a temporary reply queue, as a legacy javax/jakarta JMS client sends. */
        void aLegacyJmsClientsOrder() {
            String correlationId = "corr-rt-" + UUID.randomUUID();
            String senderTrace = randomHex(32);
            try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
                TemporaryQueue replies = jms.createTemporaryQueue();
                JMSConsumer consumer = jms.createConsumer(replies);
                // The sender's trace context as W3C properties (docs/jms.md): the order joins the sender's trace.
                jms.createProducer().setJMSReplyTo(replies).setJMSCorrelationID(correlationId)
                        .setProperty("traceparent", "00-" + senderTrace + "-" + randomHex(16) + "-01")
                        .send(jms.createQueue("orders"), OrdersApi.order("c-rt-jms-" + runtime.id(), "A-1", 1));
                List<Notification> notifications = Notification.untilFinal(consumer, WAIT);
                assertEquals(List.of("received", "step-completed", "step-completed", "step-completed", "processed"),
                        Notification.events(notifications), notifications.toString());
                notifications.forEach(n -> assertEquals(correlationId, n.correlationId(), n.toString()));
                String orderId = notifications.get(0).orderId();
                assertEquals("Processed", api.get(orderId).get("processState").asText());
                List<Traces.SpanView> spans = traces.awaitOrderTrace(orderId, WAIT, "its final transition",
                        Traces.finished("Processed"));
                assertEquals(senderTrace, spans.get(0).traceId(), "the order joined the sender's trace: " + spans);
                Traces.assertStepAttempts(spans, orderId, STEPS, "Processed");
                assertEquals(Traces.named(spans, "receive order").id(), Traces.named(spans, "submit order").parentId());
            }
        }

        void unauthenticatedIsRefused() {
            Http.Reply reply = Http.get(URI.create(server.baseUrl() + "/api/orders"));
            assertEquals(401, reply.status(), reply.body());
            assertTrue(reply.contentType().startsWith("application/problem+json"), reply.contentType());
            assertTrue(reply.body().contains("\"status\":401"), reply.body());
            // Authenticated, but without the role: 403, also a problem body.
            Http.Reply forbidden = api.as(TestStack.credentials(TestStack.VIEWER))
                    .submitRaw("application/json", OrdersApi.order("c-rt-403-" + runtime.id(), "A-1", 1));
            assertEquals(403, forbidden.status(), forbidden.body());
            assertTrue(forbidden.contentType().startsWith("application/problem+json"), forbidden.contentType());
        }

        /**
         * The console's broker side on this runtime's JMS pool and executor: the queues' counts and the
         * dead letters through Artemis management, and a valid order that the broker dead-lettered sent
         * back to the order queue, where it becomes an order.
         */
        void theAdminApiManagesTheBroker() {
            Http.Credentials operator = TestStack.credentials(TestStack.OPERATOR);
            URI admin = URI.create(server.baseUrl() + "/api/admin/");
            Http.Reply queues = Http.get(admin.resolve("queues"), operator);
            assertEquals(200, queues.status(), queues.body());
            assertEquals(5, queues.json().size(), queues.body());

            String customer = "c-rt-redrive-" + runtime.id() + "-" + UUID.randomUUID();
            try (var factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext()) {
                jms.createProducer().setProperty("_AMQ_ORIG_ADDRESS", "orders").setProperty("_AMQ_ORIG_QUEUE", "orders")
                        .send(jms.createQueue("DLQ"), OrdersApi.order(customer, "A-1", 1));
            }
            Http.Reply letters = Http.get(admin.resolve("dead-letters?limit=500"), operator);
            assertEquals(200, letters.status(), letters.body());
            long messageId = -1;
            for (JsonNode letter : letters.json()) {
                if (letter.path("body").asText().contains(customer)) {
                    messageId = letter.get("messageId").asLong();
                }
            }
            assertTrue(messageId > 0, "the dead letter is listed: " + letters.body());
            Http.Reply redriven = Http.post(admin.resolve("dead-letters/" + messageId + "/redrive"), "application/json",
                    "{\"reason\":\"runtime check\"}", operator);
            assertEquals(200, redriven.status(), redriven.body());
            String orderId = TestStack.awaitOrderOf(customer, WAIT);
            assertEquals("Processed", api.awaitState(orderId, WAIT, "Processed", "Error").get("processState").asText());
        }

        /**
         * The console's page with its security headers, and the admin API's pause on this runtime's
         * persistence provider and JAX-RS: an order parks on the paused operation without failing, and
         * finishes once it is resumed.
         */
        void theConsoleAndPauses() {
            URI root = URI.create(server.baseUrl() + "/");
            Http.Reply page = Http.get(root.resolve("console/"));
            assertEquals(200, page.status(), page.location() + " " + page.headers() + " " + page.body());
            assertTrue(page.body().contains("console.js"), page.body());
            assertTrue(String.valueOf(page.header("Content-Security-Policy")).contains("default-src 'self'"),
                    page.headers().toString());
            assertEquals(200, Http.get(root.resolve("console/console.js")).status());

            Http.Credentials operator = TestStack.credentials(TestStack.OPERATOR);
            URI admin = root.resolve("api/admin/");
            Http.Reply paused = Http.post(admin.resolve("pauses"), "application/json",
                    "{\"scope\":\"charge-payment\",\"reason\":\"runtime check\"}", operator);
            assertEquals(200, paused.status(), paused.body());
            String orderId;
            try {
                orderId = api.submit("c-rt-paused-" + runtime.id());
                var last = new java.util.concurrent.atomic.AtomicReference<JsonNode>();
                Poll.until("order " + orderId + " parked on charge-payment", WAIT, () -> {
                    last.set(Http.get(admin.resolve("orders/" + orderId), TestStack.credentials(TestStack.VIEWER)).json());
                    return "charge-payment".equals(last.get().at("/order/pausedOn").asText());
                });
                JsonNode parked = last.get();
                assertEquals("Pending", parked.at("/order/processState").asText(), parked.toString());
                assertEquals(0, parked.at("/order/failureCount").asInt(), parked.toString());
            } finally {
                Http.Reply resumed = Http.post(admin.resolve("pauses/charge-payment/resume"), "application/json",
                        "{\"reason\":\"runtime check over\"}", operator);
                assertEquals(200, resumed.status(), resumed.body());
            }
            assertEquals("Processed", api.awaitState(orderId, WAIT, "Processed", "Error").get("processState").asText());
            Http.Reply overview = Http.get(admin.resolve("overview"), TestStack.credentials(TestStack.VIEWER));
            assertEquals(200, overview.status(), overview.body());
            assertTrue(overview.json().at("/counts/Processed").asLong() >= 1, overview.body());
        }

        /** Bad input is a problem body on every server, and stores nothing. */
        void badInputIsAProblem() {
            long before = TestStack.scalar("SELECT count(*) FROM customer_order WHERE customer_id LIKE ?", "c-rt-bad-%");
            for (String[] request : List.of(new String[] {"text/plain", "hello"},
                    new String[] {"application/json", "{\"customerId\":\"c-rt-bad-1\",\"items\":[{\"sku\":\"A-1\"}"},
                    new String[] {"application/json; charset=UTF-16", OrdersApi.order("c-rt-bad-2", "A-1", 1)})) {
                Http.Reply reply = api.submitRaw(request[0], request[1]);
                assertTrue(reply.status() == 400 || reply.status() == 415, request[0] + " " + request[1] + " -> " + reply.status()
                        + " " + reply.body());
                assertTrue(reply.contentType().startsWith("application/problem+json"), reply.contentType() + " " + reply.body());
            }
            assertEquals(before, TestStack.scalar("SELECT count(*) FROM customer_order WHERE customer_id LIKE ?", "c-rt-bad-%"));
        }

        /**
         * Every call slowed, orders submitted, the server killed -9 with some Processed and some in flight,
         * started again: every accepted order ends Processed with each step applied once.
         */
        void killNineAndRestart() throws Exception {
            String prefix = "c-rt-crash-" + runtime.id() + "-";
            long appliedTwice = simulator.stats().get("appliedTwice").asLong();
            simulator.fault("*", "latency", 1.0, 1_000);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < CRASH_ORDERS; i++) {
                ids.add(api.submit(prefix + i));
            }
            Poll.until("a few orders Processed before the kill", WAIT, () -> processed(prefix) >= 2);
            server.kill9();
            long atKill = processed(prefix);
            LOG.info(runtime.label() + " killed -9 with " + atKill + " of " + CRASH_ORDERS + " orders Processed");
            assertFalse(server.isAlive());
            assertTrue(atKill < CRASH_ORDERS, "the kill came while orders were in flight");

            simulator.clearFaults();
            server.start();
            for (String id : ids) {
                JsonNode order = api.awaitState(id, Duration.ofSeconds(180), "Processed", "Error", "Compensated");
                assertEquals("Processed", order.get("processState").asText(), order.toString());
                assertEquals(STEPS.size(), simulator.effects(id).size(), "effects of " + id);
            }
            assertEquals(appliedTwice, simulator.stats().get("appliedTwice").asLong(), simulator.stats().toString());
        }

        private List<String> operations(String orderId) {
            return simulator.operations(orderId);
        }

        private static long processed(String prefix) {
            return TestStack.scalar("SELECT count(*) FROM customer_order o JOIN order_state s ON s.order_id = o.order_id"
                    + " WHERE o.customer_id LIKE ? AND s.process_state = 'Processed'", prefix + "%");
        }
    }

    /** An HTTP port whose runtime's other ports (Payara Server's domain, WildFly's offset ones) are free too. */
    static int httpPort(AppRuntime runtime) {
        if (runtime == AppRuntime.PAYARA_MICRO) {
            return TestStack.freePort();
        }
        for (int attempt = 0; attempt < 50; attempt++) {
            // a port ending in 80, from which WildFly's offset and Payara's domain ports are laid out, in this fork's slice
            var range = TestStack.PORTS;
            int http = (range.from() / 100 + 1) * 100 + 80
                    + ThreadLocalRandom.current().nextInt((range.size() - 200) / 100) * 100;
            Map<String, Integer> ports = runtime == AppRuntime.PAYARA_SERVER ? PayaraServerNode.domainPorts(http)
                    : WildFlyNode.serverPorts(http);
            // every port reserved across the forks: WildFly's and Payara Server's reach outside the fork's slice
            if (ports.values().stream().allMatch(RuntimesIT::free) && ports.values().stream().allMatch(TestStack::reserve)) {
                return http;
            }
        }
        throw new IllegalStateException("no free ports for " + runtime.label());
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
