package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppRuntime;
import io.overseer.launcher.AppServerConfig;
import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.StackLayout;
import io.overseer.support.Metrics;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * Issue 30: a team's own coded agent and workflow, without forking Overseer. The example project
 * (examples/starter) is built as a team builds it ({@link ExampleProject}: a copy, against a clean repository
 * holding only Overseer's published artifacts), its EAR deployed to Payara Server and to WildFly and its WAR to
 * Payara Micro, each started as ./run starts it, with the example's server settings (config/overseer.properties).
 * On each runtime: an order of the example's "screened-order" workflow is Processed, its screening done by the
 * team's agent through the team's client (the simulator saw each call with the step's idempotency key); a
 * refusal from the team's agent compensates the order; Overseer's own workflow still runs on the same
 * deployment; and a kill -9 while screenings are in flight still ends with every order Processed and each effect
 * applied once. On Payara Micro also: a service of the server's configuration that claims the team's operation too
 * fails the deployment, naming both.
 */
class ExampleProjectIT {

    private static final Logger LOG = Logger.getLogger(ExampleProjectIT.class.getName());
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String WORKFLOW = "screened-order";
    /** The example workflow's operations as the simulator sees them: the team's agent calls its own operation. */
    private static final List<String> CALLS = List.of("reserve-inventory", "fraud-screening", "charge-payment");
    private static final int CRASH_ORDERS = 6;

    private static ExampleProject example;
    private static Path stack;

    @TestFactory
    Stream<DynamicNode> theExampleOnEveryRuntime() {
        List<String> only = List.of(System.getProperty("overseer.it.runtimes", "").split(","));
        Stream<DynamicNode> build = Stream.of(test("the example builds from a clean repository of Overseer's artifacts",
                ExampleProjectIT::build));
        Stream<DynamicNode> runtimes = Stream.of(AppRuntime.values())
                .filter(r -> only.equals(List.of("")) || only.contains(r.id())).map(runtime -> {
                    Scenarios s = new Scenarios(runtime);
                            String id = runtime.id();
                    // WildFly is left out: the launcher cannot tell its failed deployment from a slow one, and would
                    // wait out its readiness bound (AppServerNode.applicationFailedToDeploy).
                    Stream<DynamicTest> failures = switch (runtime) {
                        case PAYARA_MICRO -> Stream.of(
                                test(id + ": a configured service claiming the team's operation too fails the deployment",
                                        s::aSecondClaimFailsTheDeployment),
                                test(id + ": an operation nobody performs fails the deployment",
                                        s::anOperationNobodyPerformsFailsTheDeployment));
                        case PAYARA_SERVER -> Stream.of(
                                test(id + ": a configured service claiming the team's operation too fails the EAR's deployment",
                                        s::aSecondClaimFailsTheDeployment));
                        default -> Stream.empty();
                    };
                    return DynamicContainer.dynamicContainer(id, Stream.concat(failures, Stream.of(
                            test(id + " starts with the example's " + (runtime == AppRuntime.PAYARA_MICRO ? "WAR" : "EAR"),
                                    s::start),
                            test(id + ": an order is Processed through the team's coded agent", () -> s.ready().processed()),
                            test(id + ": the team's agent refuses, the order is compensated", () -> s.ready().refused()),
                            test(id + ": Overseer's own workflow runs beside it", () -> s.ready().builtIn()),
                            test(id + ": kill -9 mid-screening, restart: all Processed, each effect once",
                                    () -> s.ready().killNineAndRestart()),
                            test(id + " stops", s::stop))));
                });
        return Stream.concat(build, runtimes);
    }

    private static DynamicTest test(String name, Executable body) {
        return DynamicTest.dynamicTest(name, body);
    }

    /**
     * Builds the example, checks that its deployables are Overseer's own plus the team's module and nothing else
     * (the same libraries at the same versions as the tested EAR and WAR), and stages them for the launcher.
     */
    private static void build() throws Exception {
        ExampleProject project = new ExampleProject(Files.createDirectories(TestStack.workDir().resolve("example")));
        long t0 = System.nanoTime();
        project.build();
        LOG.info("example built in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        Path built = TestStack.layout().dir();
        ExampleProject.assertOverseersPlus(built.resolve("overseer.ear"), project.ear(),
                "lib/com.example.orders-orders-agents-1.0.0-SNAPSHOT.jar");
        ExampleProject.assertOverseersPlus(built.resolve("overseer.war"), project.war(),
                "WEB-INF/lib/orders-agents-1.0.0-SNAPSHOT.jar");
        stack = project.stage(built);
        example = project;
    }

    /** One runtime's server running the example's deployable. */
    private static final class Scenarios {

        private final AppRuntime runtime;
        private final SimulatorApi simulator = TestStack.simulator();
        private AppServerNode server;
        /** Set once the server started: the scenarios after a failed start fail saying so. */
        private OrdersApi api;

        Scenarios(AppRuntime runtime) {
            this.runtime = runtime;
        }

        void start() throws Exception {
            server = node("example-" + runtime.id(), settings());
            TestStack.USERS.forEach(server::addRealmUser);
            simulator.clearFaults();
            long t0 = System.nanoTime();
            server.start();
            LOG.info(runtime.label() + " with the example ready in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            api = new OrdersApi(URI.create(server.baseUrl()));
        }

        Scenarios ready() {
            assertNotNull(api, runtime.id() + " did not start (see its first test)");
            assertTrue(server.isAlive(), runtime.id() + " is not running");
            simulator.clearFaults();
            return this;
        }

        void stop() {
            if (server != null) {
                server.stop();
            }
        }

        void processed() {
            String orderId = api.submit("c-example-" + runtime.id(), WORKFLOW);
            JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            assertEquals(CALLS, effects(orderId));
            // The team's client sent the key Overseer gave its agent: the step's, not the remote operation's.
            List<SimulatorApi.TracedCall> calls = simulator.traceCalls(orderId);
            assertEquals(List.of(orderId + ":reserve-inventory", orderId + ":screen-order", orderId + ":charge-payment"),
                    calls.stream().map(SimulatorApi.TracedCall::idempotencyKey).toList(), calls.toString());
            Metrics metrics = Metrics.scrape(api.base());
            assertEquals(1, metrics.sum("overseer_agent_circuit_state", "service", "fraud-screening", "state", "closed"),
                    "the team's agent has its circuit: " + metrics.text());
            assertEquals(1, metrics.sum("overseer_agent_circuit_state", "service", "shop", "state", "closed"),
                    "the configured service has its circuit: " + metrics.text());
        }

        void refused() {
            simulator.fault("fraud-screening", "fatal", 1.0, 0);
            String orderId = api.submit("c-example-refused-" + runtime.id(), WORKFLOW);
            JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
            assertEquals("Compensated", order.get("processState").asText(), order.toString());
            assertEquals("Failed", order.get("steps").get(1).get("state").asText(), order.toString());
            assertEquals(List.of("reserve-inventory", "release-inventory"), effects(orderId),
                    "the reservation undone, nothing screened or charged");
            String history = api.history(orderId).toString();
            assertTrue(history.contains("screening rejected the order"), "the agent's reason in the history: " + history);
        }

        void builtIn() {
            String orderId = api.submit("c-example-order-" + runtime.id());
            JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");
            assertEquals("Processed", order.get("processState").asText(), order.toString());
            assertEquals(List.of("reserve-inventory", "charge-payment", "arrange-shipping"), effects(orderId));
        }

        void killNineAndRestart() throws Exception {
            long appliedTwice = simulator.stats().get("appliedTwice").asLong();
            long screeningsBefore = screenings();
            simulator.fault("fraud-screening", "latency", 1.0, 8_000);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < CRASH_ORDERS; i++) {
                ids.add(api.submit("c-example-crash-" + runtime.id() + "-" + i, WORKFLOW));
            }
            Poll.until("screenings in flight at the simulator", WAIT, () -> screenings() >= screeningsBefore + 2);
            // The team's agent reports that it is alive while it waits (Heartbeats, by its JNDI name from the
            // library): a screening's heartbeat deadline moves.
            Map<String, String> firstSeen = new LinkedHashMap<>();
            Poll.until("the team's agent to beat while it screens", WAIT, () -> {
                for (String id : ids) {
                    String by = api.get(id).get("steps").get(1).path("heartbeatBy").asText("");
                    if (!by.isEmpty() && firstSeen.putIfAbsent(id, by) != null && !by.equals(firstSeen.get(id))) {
                        return true;
                    }
                }
                return false;
            });
            long applied = ids.stream().mapToLong(id -> effects(id).stream().filter("fraud-screening"::equals).count()).sum();
            long inFlight = screenings() - screeningsBefore - applied;
            server.kill9();
            assertFalse(server.isAlive());
            assertTrue(inFlight > 0, "screenings were in flight when the server died: " + inFlight);
            long finishedAtKill = processed(ids);
            LOG.info(runtime.label() + " killed -9 with " + finishedAtKill + " of " + CRASH_ORDERS + " orders Processed");
            assertTrue(finishedAtKill < CRASH_ORDERS, "the kill came while orders were in flight");

            simulator.clearFaults();
            server.start();
            for (String id : ids) {
                JsonNode order = api.awaitState(id, Duration.ofSeconds(180), "Processed", "Error", "Compensated");
                assertEquals("Processed", order.get("processState").asText(), order.toString());
                assertEquals(CALLS, effects(id), "each effect of " + id + " once");
            }
            assertEquals(appliedTwice, simulator.stats().get("appliedTwice").asLong(), simulator.stats().toString());
        }

        /**
         * The server's configuration adds a second service for the team's operation: the deployment must fail,
         * naming the operation and both services, rather than pick one.
         */
        void aSecondClaimFailsTheDeployment() throws Exception {
            Map<String, String> settings = settings();
            settings.put("overseer.agent.http-services", "shop,screening");
            settings.put("overseer.agent.service.screening.url", TestStack.simulatorUrl() + "/operations/{operation}");
            settings.put("overseer.agent.service.screening.operations", "screen-order");
            failsToDeploy("example-claimed-twice", settings,
                    "Operation 'screen-order' is claimed by several services: ", "fraud-screening", ", screening");
        }

        /**
         * The configured service takes only the team's workflow's other operations, no longer every other one:
         * the charge of the workflow is performed by nobody, and the deployment must fail naming it.
         */
        void anOperationNobodyPerformsFailsTheDeployment() throws Exception {
            Map<String, String> settings = settings();
            settings.put("overseer.agent.service.shop.operations", "reserve-inventory,release-inventory");
            failsToDeploy("example-nobody", settings, "No remote service performs operation 'charge-payment'");
        }

        /**
         * The start fails: Payara Micro's saying the application did not deploy, Payara Server's with the deploy
         * command's failure (its EAR is deployed by asadmin); the reason, in these words, is in what the start
         * said or in the server's log.
         */
        private void failsToDeploy(String name, Map<String, String> settings, String... reason) throws IOException {
            AppServerNode server = node(name, settings);
            try {
                IllegalStateException failure = assertThrows(IllegalStateException.class, server::start);
                assertTrue(failure.getMessage().contains(runtime == AppRuntime.PAYARA_MICRO
                        ? "the application failed to deploy" : "Error occurred during deployment"), failure.getMessage());
                String said = failure.getMessage() + Files.readString(server.logFile());
                for (String words : reason) {
                    assertTrue(said.contains(words), "the reason, " + List.of(reason) + ", in the start's failure or "
                            + server.logFile() + ": " + failure.getMessage());
                }
            } finally {
                server.kill9();
            }
        }

        private AppServerNode node(String name, Map<String, String> settings) {
            AppServerConfig config = TestStack.serverConfig(RuntimesIT.httpPort(runtime), "127.0.0.1",
                    TestStack.appProperties()).withAppProperties(settings);
            Path dir = TestStack.workDir().resolve(name);
            return runtime.newNode(StackLayout.fromDirectory(stack), name, dir, dir.resolve(name + ".log"), config);
        }

        /** The example's config/overseer.properties, its workflow file where the build copied it. */
        private static Map<String, String> settings() throws IOException {
            assertNotNull(example, "the example was not built (see the first test)");
            Properties properties = new Properties();
            try (InputStream in = Files.newInputStream(example.project().resolve("config/overseer.properties"))) {
                properties.load(in);
            }
            Map<String, String> settings = new LinkedHashMap<>();
            properties.stringPropertyNames().forEach(key -> settings.put(key, properties.getProperty(key)));
            assertTrue(settings.containsKey("overseer.workflows.file"), settings.toString());
            settings.put("overseer.workflows.file", example.project().resolve("config/workflows.json").toString());
            return settings;
        }

        private List<String> effects(String orderId) {
            return simulator.operations(orderId);
        }

        private long screenings() {
            JsonNode screening = simulator.traffic().get("fraud-screening");
            return screening == null ? 0 : screening.get("starts").asLong();
        }

        /** Read from the state store: the server is dead. */
        private static long processed(List<String> ids) {
            long processed = 0;
            for (String id : ids) {
                processed += TestStack.scalar("SELECT count(*) FROM order_state WHERE order_id = ? AND process_state = 'Processed'", id);
            }
            return processed;
        }
    }
}
