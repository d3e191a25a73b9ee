package io.overseer.support;

import io.overseer.launcher.AppServerConfig;
import io.overseer.launcher.BrokerNode;
import io.overseer.launcher.BrokerUser;
import io.overseer.launcher.LauncherOptions;
import io.overseer.launcher.PayaraMicroNode;
import io.overseer.launcher.PostgresNode;
import io.overseer.launcher.RealmUser;
import io.overseer.launcher.Stack;
import io.overseer.launcher.StackAdditions;
import io.overseer.launcher.StackLayout;
import io.overseer.launcher.Templates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The infrastructure every test JVM of this module shares, started once before the first test and
 * stopped after the last: a real PostgreSQL, a real Artemis broker and the remote-service simulator,
 * on free ports and fresh directories, assembled by the launcher's {@link Stack} as {@code ./run}'s are (its
 * infrastructure only, with the tests' broker users); the servers tests start are wired by the same stack
 * ({@link #serverConfig}). It also
 * writes the Payara post-boot file and the system properties arquillian.xml reads, so the Arquillian
 * managed Payara Micro joins this stack.
 */
public final class TestStack implements LauncherSessionListener {

    /** Retries the supervisor grants before Error, as configured for the servers tests start. */
    public static final int MAX_RETRIES = 3;
    /** Event streams one user may hold open on one test server at once. */
    public static final int MAX_STREAMS_PER_USER = 5;
    /**
     * Task types added by configuration only (overseer.workflows.file), beside the built-in "order":
     * a single step that stops in Error when it gives up ("patient-charge" the same with a minute to
     * complete, for a test that must see no attempt expire however busy the machine), a two-step "express" order, "slow-ship" (its
     * shipping attempt may take a minute: long enough to forge replies while it runs), and "screened",
     * whose first operation a coded agent performs in the Arquillian tier's deployment (AgentSpiIT) and the
     * simulator's catch-all agent on the system tier's servers; "vetted" likewise, whose coded agent refuses every order
     * with a 5,000-character explanation; "audited", whose long step must beat every 3 s (HeartbeatIT's
     * coded agent does; the simulator, answering at once, need not); "approved", which waits up to 8 s for
     * an "approval" event between two calls (EventIT); "limited", one call whose operation FlowLimitIT's
     * instances limit; "forked", whose parallel group packs and invoices at once (ParallelIT, CrashRecoveryIT);
     * "stuck-screened", whose one operation LivenessIT's coded agent holds its worker on; "guarded", one call
     * to the service with CircuitBreakerIT's lowered circuit (the catch-all service where none is configured).
     */
    public static final String EXTRA_WORKFLOWS = """
            {"workflows": [
              {"name": "single-charge", "steps": [{"name": "charge-payment", "onExhausted": "error"}]},
              {"name": "patient-charge", "steps": [{"name": "charge-payment", "completeBy": "PT60S", "onExhausted": "error"}]},
              {"name": "express", "steps": [
                {"name": "reserve-inventory", "compensation": "release-inventory"},
                {"name": "arrange-shipping", "compensation": "cancel-shipment"}]},
              {"name": "slow-ship", "steps": [
                {"name": "reserve-inventory", "compensation": "release-inventory"},
                {"name": "arrange-shipping", "compensation": "cancel-shipment", "completeBy": "PT60S"}]},
              {"name": "screened", "steps": [
                {"name": "screen-order", "onExhausted": "error"},
                {"name": "charge-payment", "compensation": "refund-payment"}]},
              {"name": "vetted", "steps": [
                {"name": "reserve-inventory", "compensation": "release-inventory"},
                {"name": "vet-order"}]},
              {"name": "audited", "steps": [
                {"name": "audit-stock", "completeBy": "PT60S", "heartbeat": "PT3S", "onExhausted": "error"}]},
              {"name": "approved", "steps": [
                {"name": "reserve-inventory", "compensation": "release-inventory"},
                {"name": "await-approval", "event": "approval", "completeBy": "PT8S"},
                {"name": "charge-approved", "compensation": "refund-payment"}]},
              {"name": "limited", "steps": [{"name": "limited-call", "onExhausted": "error"}]},
              {"name": "stuck-screened", "steps": [{"name": "stuck-screen", "onExhausted": "error"}]},
              {"name": "guarded", "steps": [{"name": "guarded-charge", "onExhausted": "error"}]},
              {"name": "forked", "steps": [
                {"name": "reserve-inventory", "compensation": "release-inventory"},
                {"group": "fulfil", "steps": [
                  {"name": "pack-parcel", "compensation": "unpack-parcel", "completeBy": "PT8S"},
                  {"name": "issue-invoice", "compensation": "void-invoice", "completeBy": "PT8S"}]},
                {"name": "send-confirmation"}]}
            ]}
            """;
    private static Map<String, String> appProperties = Map.of();
    /** An operator of the test servers' file realm, with a password made up for this run. */
    public static final RealmUser OPERATOR = user("ops", "operator");
    /** The usual API client of the tests: may submit orders and read them. */
    public static final RealmUser CLIENT = user("client", "submitter", "viewer");
    /** May submit, not read. */
    public static final RealmUser SUBMITTER = user("submit-only", "submitter");
    /** May read, not submit. */
    public static final RealmUser VIEWER = user("view-only", "viewer");
    /** Every user the test servers' realm holds (created by each server's post-boot commands). */
    public static final List<RealmUser> USERS = List.of(OPERATOR, CLIENT, SUBMITTER, VIEWER);

    /** The user's HTTP Basic credentials. */
    public static Http.Credentials credentials(RealmUser user) {
        return new Http.Credentials(user.name(), user.password());
    }

    /** The launcher's sample that ./run loads, with a parallel group: the console draws it (ConsoleViewerIT). */
    public static final String SAMPLE_WORKFLOW = "fulfilment";

    /** {@link #EXTRA_WORKFLOWS} and, as ./run loads it, the launcher's sample {@value #SAMPLE_WORKFLOW}. */
    static String workflowsFile() throws IOException {
        String resource = "io/overseer/launcher/sample-workflows.json";
        try (var in = TestStack.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the launcher jar lacks " + resource);
            }
            var workflows = (com.fasterxml.jackson.databind.node.ObjectNode) Http.JSON.readTree(EXTRA_WORKFLOWS);
            for (var sample : Http.JSON.readTree(in).get("workflows")) {
                if (SAMPLE_WORKFLOW.equals(sample.get("name").asText())) {
                    ((com.fasterxml.jackson.databind.node.ArrayNode) workflows.get("workflows")).add(sample);
                }
            }
            return workflows.toString();
        }
    }

    private static RealmUser user(String name, String... roles) {
        return new RealmUser(name, java.util.UUID.randomUUID().toString(), List.of(roles));
    }

    /** Broker users of each role, with passwords made up for this run (the application's is the broker node's). */
    public static final BrokerUser BROKER_SUBMITTER = BrokerUser.generated("legacy-app", BrokerUser.SUBMITTER);
    public static final BrokerUser OTHER_BROKER_SUBMITTER = BrokerUser.generated("other-app", BrokerUser.SUBMITTER);
    public static final BrokerUser BROKER_VIEWER = BrokerUser.generated("watcher", BrokerUser.VIEWER);
    public static final BrokerUser BROKER_OPERATOR = BrokerUser.generated("broker-ops", BrokerUser.OPERATOR);
    /**
     * The HTTP user {@link #CLIENT} on the broker, where it reads the notifications of the orders it submits
     * over HTTP: a named reply queue is its submitter's, by name ({@code overseer.reply.client.…}).
     */
    public static final BrokerUser BROKER_CLIENT = BrokerUser.generated(CLIENT.name(), BrokerUser.VIEWER);
    /** The application's own broker user (the servers connect as it): the only one that may feed the agents. */
    public static final BrokerUser BROKER_APPLICATION = BrokerUser.generated("overseer-app", BrokerUser.APPLICATION);

    /** The launcher's stack, infrastructure only: the servers tests start are wired by {@link #serverConfig}. */
    private static Stack stack;
    private static StackLayout layout;
    private static Path workDir;
    private static io.overseer.launcher.TracingBackend tracing;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String stackDir = System.getProperty("overseer.stack.dir");
        if (stackDir == null || stack != null) {
            return; // not a run of this module's integration tests
        }
        try {
            start(StackLayout.fromDirectory(Path.of(stackDir)), Path.of(System.getProperty("overseer.work.dir", "target/it-stack")));
        } catch (Exception e) {
            stopAll();
            throw new IllegalStateException("Could not start the test stack", e);
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        try {
            SharedPayaraMicro.stopAll(); // the Arquillian tier's servers, before the database and broker they use
        } catch (org.jboss.arquillian.container.spi.client.container.LifecycleException | RuntimeException e) {
            System.getLogger(TestStack.class.getName()).log(System.Logger.Level.ERROR, "stopping the shared Payara Micro", e);
        }
        stopAll();
    }

    private static void start(StackLayout stackLayout, Path dir) throws Exception {
        layout = stackLayout;
        workDir = dir.toAbsolutePath();
        deleteTree(workDir);
        Files.createDirectories(workDir.resolve("logs"));
        stack = new Stack(options(workDir), layout, StackAdditions.infrastructure(BROKER_APPLICATION,
                List.of(BROKER_SUBMITTER, OTHER_BROKER_SUBMITTER, BROKER_VIEWER, BROKER_OPERATOR, BROKER_CLIENT)));
        stack.start();
        Path workflows = Files.writeString(workDir.resolve("workflows.json"), workflowsFile());
        appProperties = Map.of(
                "overseer.scheduler.complete-by", "PT3S",
                "overseer.supervisor.max-retries", Integer.toString(MAX_RETRIES),
                "overseer.scheduler.stranded-after", "PT5S",
                "overseer.workflows.file", workflows.toString(),
                // low enough for ReadingIT to reach with a few streams
                "overseer.events.max-streams-per-user", Integer.toString(MAX_STREAMS_PER_USER),
                // Every test connects from 127.0.0.1: the per-address limit would hold up the tests that
                // follow one that fails logins on purpose. The per-user limit (default 10) stays.
                "overseer.login.max-failures-per-address", "100000");
        publishArquillianProperties();
    }

    /**
     * ./run's options for a stack in {@code dir} on ports of this fork's slice ({@link #freePort}); the
     * environment's OVERSEER_* variables are not read. Zipkin's and the relay's are used if a test asks for
     * {@link #tracing()}.
     */
    private static LauncherOptions options(Path dir) {
        return LauncherOptions.parse(new String[] {"--data-dir", dir.toString(), "--bind-address", "127.0.0.1",
                "--db-port", port(), "--broker-port", port(), "--console-port", port(), "--simulator-port", port(),
                "--zipkin-port", port(), "--otlp-port", port()}, Map.of());
    }

    private static String port() {
        return Integer.toString(freePort());
    }

    /**
     * A test server's settings, wired by the launcher's stack as ./run wires its own (the database, the broker
     * as the application's user, the simulator), listening on {@code bindAddress}.
     */
    public static AppServerConfig serverConfig(int httpPort, String bindAddress, Map<String, String> properties) {
        requireStarted();
        return stack.serverConfig(httpPort, bindAddress, properties);
    }

    /** System properties that arquillian.xml refers to as ${...}. */
    private static void publishArquillianProperties() throws IOException {
        // With the listener's address and the data grid's interface (pre-/post-boot below): nothing on *.
        StringBuilder jvm = new StringBuilder("-Xmx512m -Dhazelcast.socket.bind.any=false -Doverseer.remote-service.url="
                + simulatorUrl());
        appProperties.forEach((key, value) -> jvm.append(" -D").append(key).append('=').append(value));
        System.setProperty("overseer.it.jvmOptions", jvm.toString());
        Path postBoot = writePostBoot();
        System.setProperty("overseer.it.microOptions", "--nocluster --addlibs " + layout.postgresqlJar()
                + " --prebootcommandfile " + moveListenerSettingsToPreBoot(postBoot)
                + " --postbootcommandfile " + postBoot);
        System.setProperty("overseer.it.microJar", layout.payaraMicroJar().toString());
    }

    /**
     * The post-boot file's settings of the HTTP listener's protocol, run before boot instead. Set after
     * boot, they restart the running listener; under Arquillian (a random port, Payara's autoBind) the
     * restarted listener can find its port still held and take the next one, where the tests do not look
     * (seen: every OrderFlowIT request refused, the listener moved from 9003 to 9004). The launcher keeps
     * the listener closed until deployment, so it is not affected.
     */
    private static Path moveListenerSettingsToPreBoot(Path postBoot) throws IOException {
        List<String> markers = List.of(".network-config.protocols.protocol.", ".network-config.network-listeners.");
        List<String> lines = Files.readAllLines(postBoot);
        List<String> early = lines.stream()
                .filter(l -> l.startsWith("set ") && markers.stream().anyMatch(l::contains)).toList();
        Files.write(postBoot, lines.stream().filter(l -> !early.contains(l)).toList());
        return Files.write(workDir.resolve("pre-boot.asadmin"), early);
    }

    /**
     * Payara Micro listens on every interface, its data grid too (even with --nocluster): the test servers
     * listen on 127.0.0.1 only, as ./run's do (PayaraMicroNode). Unlike ./run's, they keep the grid
     * (Arquillian's container passes --nocluster, which overrides --nohazelcast): the container reads the
     * server's address from the grid member's, so the grid must be on 127.0.0.1 too (moved there after boot;
     * set-hazelcast-configuration is refused before it). The listener's line moves to the pre-boot
     * file with the protocol's settings ({@link #moveListenerSettingsToPreBoot}).
     */
    private static final String LOOPBACK_ONLY = "set configs.config.server-config.network-config.network-listeners"
            + ".network-listener." + PayaraMicroNode.HTTP_LISTENER + ".address=127.0.0.1" + System.lineSeparator()
            + "set-hazelcast-configuration --interfaces=127.0.0.1 --dynamic=true" + System.lineSeparator();

    private static Path writePostBoot() throws IOException {
        return writePostBoot(workDir.resolve("post-boot.asadmin"));
    }

    /**
     * The server-config post-boot file filled in for this stack and Payara Micro's HTTP listener, plus the
     * test operator; Payara Micro runs it at boot.
     */
    public static Path writePostBoot(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>(serverConfig(0, "127.0.0.1", Map.of())
                .postBootValues(layout.rar().toString()));
        values.put("HTTP_LISTENER", PayaraMicroNode.HTTP_LISTENER);
        Files.writeString(file, Templates.substitute(Files.readString(layout.postBootTemplate()), values)
                + System.lineSeparator() + LOOPBACK_ONLY + RealmUser.postBootCommands(USERS, workDir));
        return file;
    }


    private static synchronized void stopAll() {
        if (tracing != null) {
            tracing.stop();
            tracing = null;
        }
        if (stack != null) {
            stack.stop();
        }
        stack = null;
    }

    /**
     * The trace viewer and the relay to it (Zipkin, {@link io.overseer.launcher.TracingBackend}), started by the
     * first test that asks and stopped with the stack; its {@code appProperties(instance)} turn a server's
     * tracing on.
     */
    public static synchronized io.overseer.launcher.TracingBackend tracing() throws IOException {
        requireStarted();
        if (tracing == null) {
            io.overseer.launcher.TracingBackend backend = io.overseer.launcher.TracingBackend.of(stack.options(), layout);
            backend.start();
            tracing = backend;
        }
        return tracing;
    }

    /** Application properties for test servers: short deadlines so expiries happen within seconds. */
    public static Map<String, String> appProperties() {
        return appProperties;
    }

    public static StackLayout layout() {
        return layout;
    }

    public static Path workDir() {
        return workDir;
    }

    /**
     * Fails saying why when the stack is not up. It starts once per test run, before any test class and
     * before Arquillian starts Payara Micro: this class is a JUnit {@code LauncherSessionListener}
     * (registered in {@code META-INF/services}), active when failsafe sets {@code overseer.stack.dir}.
     */
    public static void requireStarted() {
        if (stack == null) {
            throw new IllegalStateException("The test stack (PostgreSQL, Artemis, the simulator) is not running: it starts"
                    + " when the tests run under system-tests' failsafe executions, which set overseer.stack.dir");
        }
    }

    public static String stackFile(String name) {
        return Path.of(System.getProperty("overseer.stack.dir")).resolve(name).toString();
    }

    public static PostgresNode postgres() {
        return stack.postgres();
    }

    public static BrokerNode broker() {
        return stack.broker();
    }

    public static String simulatorUrl() {
        return stack.simulator().baseUrl();
    }

    public static SimulatorApi simulator() {
        return new SimulatorApi(URI.create(simulatorUrl()));
    }

    public static String brokerUrl() {
        return "tcp://127.0.0.1:" + broker().port();
    }

    /** A Core JMS connection factory of the broker's operator (every permission: reads the DLQ too). */
    public static ActiveMQConnectionFactory connectionFactory() {
        return connectionFactory(BROKER_OPERATOR);
    }

    public static ActiveMQConnectionFactory connectionFactory(BrokerUser user) {
        return new ActiveMQConnectionFactory(brokerUrl(), user.name(), user.password());
    }

    public static AlertSubscriber alerts() {
        return new AlertSubscriber(brokerUrl(), BROKER_VIEWER.name(), BROKER_VIEWER.password());
    }

    public static int brokerPort() {
        return broker().port();
    }

    public static Connection db() throws SQLException {
        DatabaseTarget target = redirected;
        if (target != null) {
            return DriverManager.getConnection(target.url(), target.user(), target.password());
        }
        PostgresNode postgres = postgres();
        return DriverManager.getConnection(postgres.jdbcUrl(), postgres.appUser(), postgres.appPassword());
    }

    /** A database other than the test stack's one, for {@link #useDatabase}. */
    private record DatabaseTarget(String url, String user, String password) {
    }

    private static volatile DatabaseTarget redirected;

    /**
     * For a test class whose servers use a database of its own (DatabaseFailoverIT's replicated one):
     * {@link #db()}, and so every helper that reads the state store, reads there until the returned handle
     * is closed. Each fork runs one class at a time (its own stack, this static with it).
     */
    public static AutoCloseable useDatabase(String url, String user, String password) {
        redirected = new DatabaseTarget(url, user, password);
        return () -> redirected = null;
    }

    public static long countOrders() {
        return scalar("SELECT count(*) FROM customer_order", null);
    }

    /** Waits until an order of this customer exists and returns its id. */
    public static String awaitOrderOf(String customerId, Duration timeout) {
        return Poll.until("an order of customer " + customerId, timeout, Duration.ofMillis(200),
                () -> orderOf(customerId), java.util.Optional::isPresent).orElseThrow();
    }

    private static java.util.Optional<String> orderOf(String customerId) {
        try (Connection c = db(); PreparedStatement s = c.prepareStatement(
                "SELECT order_id FROM customer_order WHERE customer_id = ?")) {
            s.setString(1, customerId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? java.util.Optional.of(r.getString(1)) : java.util.Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Order counts by process state, for failure messages. */
    public static String statesSummary() {
        StringBuilder summary = new StringBuilder();
        try (Connection c = db(); PreparedStatement s = c.prepareStatement(
                "SELECT process_state, count(*) FROM order_state GROUP BY process_state ORDER BY 1");
             ResultSet r = s.executeQuery()) {
            while (r.next()) {
                summary.append(r.getString(1)).append('=').append(r.getLong(2)).append(' ');
            }
        } catch (SQLException e) {
            return "unavailable: " + e.getMessage();
        }
        return summary.toString().trim();
    }

    /** Runs one statement with string parameters (tests that tamper with stored rows); returns the rows changed. */
    public static int update(String sql, String... parameters) {
        try (Connection c = db(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                s.setString(i + 1, parameters[i]);
            }
            return s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static long scalar(String sql, String parameter) {
        try (Connection c = db(); PreparedStatement s = c.prepareStatement(sql)) {
            if (parameter != null) {
                s.setString(1, parameter);
            }
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A free loopback port below Linux's ephemeral range (32768-60999), in this fork's slice of it
     * ({@link #PORTS}). A port from the ephemeral range (what {@code new ServerSocket(0)} gives) can be taken
     * while its server is down by the outgoing connections that retry it: a client connecting to 127.0.0.1:P
     * with nothing listening may be given P as its own port and connect to itself, and the restarted server then
     * cannot bind P (seen in the chaos run: a killed PostgreSQL could not come back, "Address already in use").
     */
    public static int freePort() {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 500; attempt++) {
            int port = PORTS.from() + random.nextInt(PORTS.size());
            if (TAKEN.add(port) && free(port) && reserve(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port in " + PORTS);
    }

    /** {@code size} consecutive ports, free now and never handed out before in this JVM. */
    public static int freePorts(int size) {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 500; attempt++) {
            int first = PORTS.from() + random.nextInt(PORTS.size() - size);
            boolean ok = true;
            for (int p = first; p < first + size && ok; p++) {
                ok = !TAKEN.contains(p) && free(p);
            }
            for (int p = first; p < first + size && ok; p++) {
                ok = reserve(p);
            }
            if (ok) {
                for (int p = first; p < first + size; p++) {
                    TAKEN.add(p);
                }
                return first;
            }
        }
        throw new IllegalStateException("no " + size + " consecutive free ports in " + PORTS);
    }

    /** Ports {@code from} (inclusive) to {@code to} (exclusive). */
    public record PortRange(int from, int to) {
        public int size() {
            return to - from;
        }
    }

    /**
     * The ports this JVM hands out. A tier runs its classes in several JVMs at once (failsafe's forks, each with
     * a stack of its own: {@code it.forks}, docs/testing.md); each takes its own slice of 20000-32699, so that
     * two forks never pick the same free port in the moment before either binds it.
     */
    public static final PortRange PORTS = slice(Integer.getInteger("overseer.it.fork", 1),
            Integer.getInteger("overseer.it.forks", 1));

    static PortRange slice(int fork, int forks) {
        if (forks < 1 || fork < 1 || fork > forks) {
            throw new IllegalStateException("fork " + fork + " of " + forks + ": overseer.it.fork must be 1.." + forks);
        }
        int width = 12_700 / forks;
        return new PortRange(20_000 + (fork - 1) * width, 20_000 + fork * width);
    }

    /**
     * Reserves {@code port} for this JVM's life across the tier's forks, by a lock on a file named after it
     * (target/port-locks): a port a fork handed out, or one a runtime derives from it (WildFly's offsets, Payara
     * Server's domain ports, which reach outside the fork's slice), is never handed out by another fork.
     */
    public static boolean reserve(int port) {
        if (HELD.containsKey(port)) {
            return false;
        }
        try {
            Path dir = Files.createDirectories(Path.of("target", "port-locks"));
            java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(dir.resolve(port + ".lock"),
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
            java.nio.channels.FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                return false;
            }
            HELD.put(port, lock);
            return true;
        } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
            return false;
        }
    }

    private static final Map<Integer, java.nio.channels.FileLock> HELD = new java.util.concurrent.ConcurrentHashMap<>();

    /** Ports handed out in this JVM: two calls in a row never get the same one before either is bound. */
    private static final java.util.Set<Integer> TAKEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
