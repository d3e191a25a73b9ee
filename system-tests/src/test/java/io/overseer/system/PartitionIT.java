package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.Host;
import io.overseer.launcher.LauncherOptions;
import io.overseer.launcher.Stack;
import io.overseer.launcher.Wait;
import io.overseer.launcher.lab.HostNetwork;
import io.overseer.launcher.lab.PatroniNode;
import io.overseer.launcher.lab.PostgresHa;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Network partitions on hosts of their own ({@code --hosts namespaces}, docs/network-faults.md): two Payara
 * Micro instances, the broker, the replicated PostgreSQL's two hosts (and the etcd witness) and the
 * simulator, each in a network namespace of its own, as the launcher's Stack builds them. Instance 1 is cut
 * off from the database and the broker while orders keep arriving through instance 2: its readiness turns
 * DOWN (both checks), instance 2 processes every order, and once healed instance 1 is ready again by itself
 * — the same process — and processes orders; every effect applied once.
 *
 * <p>Then instance 1 is cut from the database only, the broker still reachable: it takes no work it cannot
 * finish — the agent requests and replies it receives it hands back at once (DatabaseReachability), so
 * every order submitted meanwhile through instance 2 is Processed (none compensated by expiring steps,
 * as before the hand-back), each effect once, and instance 1 serves again by itself once healed.
 *
 * <p>And the database primary's host is isolated (its link down) for {@value #PRIMARY_AWAY_SECONDS} s,
 * longer than Patroni's ttl, while both instances take orders over REST and a legacy client sends them over
 * JMS: cut from the etcd majority, the old primary demotes itself and the synchronous standby is promoted;
 * the instances' connections to the old primary give up after the JDBC URL's socketTimeout. Every accepted
 * order is Processed, each effect once, every JMS order exists once, no POST waits past the URL's bound
 * (socketTimeout plus loginTimeout), and the old primary rejoins as the synchronous standby once healed.
 */
class PartitionIT {

    private static final Logger LOG = Logger.getLogger(PartitionIT.class.getName());
    private static final Duration DOWN_WITHIN = Duration.ofSeconds(30);
    private static final Duration SETTLED_WITHIN = Duration.ofSeconds(120);
    private static final int PRIMARY_AWAY_SECONDS = 20;
    /**
     * The longest a POST may take while the primary is cut off: a pooled connection to it gives up after
     * the URL's socketTimeout (10 s), and a new one finds the promoted primary within loginTimeout (5 s).
     */
    private static final Duration POST_BOUND = Duration.ofSeconds(15);
    private static final Http.Credentials DEMO = new Http.Credentials(LauncherOptions.DEMO_USER, LauncherOptions.DEMO_PASSWORD);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Stack stack;
    private static HostNetwork network;

    @BeforeAll
    static void startStack() throws Exception {
        int http = TestStack.freePorts(2);
        LauncherOptions options = LauncherOptions.parse(new String[] {"--db-ha", "--hosts", "namespaces",
                "--instances", "2", "--http-port", Integer.toString(http),
                "--simulator-port", free(), "--broker-port", free(), "--console-port", free(),
                "--db-port", Integer.toString(TestStack.freePorts(10)),
                "--data-dir", TestStack.workDir().resolve("partitions").toString(),
                // Work a partition strands is taken back within the test's bounds (default 30 s).
                "-D", "overseer.scheduler.complete-by=PT10S"}, Map.of());
        stack = new Stack(options, TestStack.layout());
        letTheDatabaseUserThrough(TestStack.workDir());
        try {
            stack.start();
        } catch (Exception e) {
            stack.stop();
            throw e;
        }
        network = stack.network();
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.stop();
        }
    }

    @Test
    void anInstanceCutFromDatabaseAndBrokerIsNotReadyAndResumesByItselfOnceHealed() throws Exception {
        AppServerNode cut = stack.appServers().get(0);
        AppServerNode other = stack.appServers().get(1);
        long pid = cut.pid();
        List<Host> away = List.of(host("db1"), host("db2"), host("broker"));
        String prefix = "c-partition-both-" + Long.toHexString(System.nanoTime()) + "-";
        List<String> during;
        for (Host h : away) {
            network.cut(host("app1"), h);
        }
        try {
            JsonNode health = Poll.until("instance 1's readiness DOWN with the database and the broker DOWN", DOWN_WITHIN,
                    Duration.ofMillis(500), () -> readiness(cut), h -> h != null && "DOWN".equals(check(h, "database"))
                            && "DOWN".equals(check(h, "broker")));
            LOG.info("Cut off, instance 1 answers " + health);
            during = submit(other, prefix + "during-", 20);
            awaitProcessed(during);
        } finally {
            for (Host h : away) {
                network.heal(host("app1"), h);
            }
        }
        Poll.until("instance 1 ready again by itself", DOWN_WITHIN, () -> ready(cut));
        assertEquals(pid, cut.pid(), "instance 1 resumed in the same process, not restarted");
        List<String> after = submit(cut, prefix + "after-", 10);
        awaitProcessed(after);
        assertEachAppliedOnce(during);
        assertEachAppliedOnce(after);
    }

    @Test
    void anInstanceThatReachesTheBrokerButNotTheDatabaseHoldsNoWorkItCannotFinish() throws Exception {
        AppServerNode cut = stack.appServers().get(0);
        AppServerNode other = stack.appServers().get(1);
        long pid = cut.pid();
        String prefix = "c-partition-db-" + Long.toHexString(System.nanoTime()) + "-";
        network.cut(host("app1"), host("db1"));
        network.cut(host("app1"), host("db2"));
        long t0 = System.nanoTime();
        List<String> orders;
        try {
            JsonNode health = Poll.until("instance 1's readiness DOWN with the database DOWN and the broker UP",
                    DOWN_WITHIN, Duration.ofMillis(500), () -> readiness(cut), h -> h != null
                            && "DOWN".equals(check(h, "database")) && "UP".equals(check(h, "broker")));
            LOG.info("Cut from the database, instance 1 answers " + health);
            // Their steps are queued where instance 1's consumers take them too.
            orders = submit(other, prefix, 30);
            awaitProcessed(orders);
        } finally {
            network.heal(host("app1"), host("db1"));
            network.heal(host("app1"), host("db2"));
        }
        LOG.info("30 orders Processed in " + (System.nanoTime() - t0) / 1_000_000
                + " ms from the cut, while instance 1 reached the broker but not the database");
        Poll.until("instance 1 ready again by itself", DOWN_WITHIN, () -> ready(cut));
        assertEquals(pid, cut.pid(), "instance 1 resumed in the same process, not restarted");
        assertEachAppliedOnce(orders);
        List<String> after = submit(cut, prefix + "after-", 5);
        awaitProcessed(after);
    }

    @Test
    void theDatabasePrimaryIsolatedUnderLoadFailsOverAndNoAcceptedOrderIsLost() throws Exception {
        PostgresHa db = stack.postgresHa();
        PatroniNode old = Poll.until("a primary", DOWN_WITHIN, Duration.ofMillis(500), () -> db.primary().orElse(null),
                p -> p != null);
        Poll.until("the standby in sync before the fault", SETTLED_WITHIN,
                () -> db.nodes().stream().filter(n -> n != old).allMatch(PatroniNode::isSynchronousStandby));
        String prefix = "c-partition-primary-" + Long.toHexString(System.nanoTime()) + "-";
        RestLoad rest = new RestLoad(prefix);
        JmsOrderLoad jms = new JmsOrderLoad("tcp://" + stack.broker().host().address() + ":" + stack.broker().port(),
                LauncherOptions.DEMO_USER, LauncherOptions.DEMO_PASSWORD, 2,
                () -> DriverManager.getConnection(db.jdbcUrl(), LauncherOptions.EMBEDDED_DB, LauncherOptions.EMBEDDED_DB),
                PartitionIT::simulator);
        long failoverMs;
        rest.start();
        jms.start(prefix);
        try {
            Poll.sleep(3000);
            long t0 = System.nanoTime();
            network.isolate(old.host());
            try {
                PatroniNode promoted = Poll.until("the standby to take writes", Duration.ofSeconds(60),
                        Duration.ofMillis(200), () -> db.primary().filter(p -> p != old).orElse(null), p -> p != null);
                failoverMs = (System.nanoTime() - t0) / 1_000_000;
                LOG.info(promoted.name() + " primary " + failoverMs + " ms after " + old.name() + " was isolated");
                Poll.sleep(Math.max(0, PRIMARY_AWAY_SECONDS * 1000L - failoverMs));
            } finally {
                network.rejoin(old.host());
            }
            Poll.sleep(5000); // orders keep coming after the heal
        } finally {
            rest.stop();
            jms.stop();
        }
        List<String> orders = List.copyOf(rest.accepted);
        LOG.info("Primary isolated " + PRIMARY_AWAY_SECONDS + " s: standby promoted after " + failoverMs + " ms; "
                + rest.describe() + "; " + jms.describe());
        assertTrue(orders.size() > 0 && jms.accepted() > 0, "orders were taken over REST and JMS");
        // The orders first: a failed answer must not leave the next test a backlog to wade through.
        awaitProcessed(orders);
        assertEachAppliedOnce(orders);
        jms.awaitFinal(SETTLED_WITHIN);
        assertAll(jms.checks());
        Poll.until(old.name() + " back as the synchronous standby", SETTLED_WITHIN, old::isSynchronousStandby);
        assertTrue(rest.slowestMs.get() <= POST_BOUND.toMillis(), "slowest POST " + rest.slowestMs.get() + " ms");
        assertEquals(List.of(), List.copyOf(rest.unexpected), "answers other than 202, or 503 with Retry-After");
    }

    /** A client thread per instance, one POST every 250 ms, each answer recorded; 503 must say when to retry. */
    private static final class RestLoad {
        final ConcurrentLinkedQueue<String> accepted = new ConcurrentLinkedQueue<>();
        final AtomicInteger refused = new AtomicInteger();
        /** Each answer neither 202 nor 503 with Retry-After: its status and the start of its body, or the failure. */
        final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
        final AtomicLong slowestMs = new AtomicLong();
        private final String prefix;
        private final List<Thread> clients = new ArrayList<>();
        private volatile boolean running = true;

        RestLoad(String prefix) {
            this.prefix = prefix;
        }

        void start() {
            for (AppServerNode node : stack.appServers()) {
                OrdersApi api = new OrdersApi(URI.create(node.baseUrl()), DEMO);
                Thread client = new Thread(() -> {
                    for (int i = 0; running; i++) {
                        long t = System.nanoTime();
                        Http.Reply reply = null;
                        try {
                            reply = api.submitRaw("application/json", OrdersApi.order(prefix + node.name() + "-" + i, "A-1", 1));
                        } catch (RuntimeException e) {
                            LOG.info("POST to " + node.name() + " failed: " + e);
                            unexpected.add(node.name() + ": " + e);
                        }
                        slowestMs.accumulateAndGet((System.nanoTime() - t) / 1_000_000, Math::max);
                        if (reply != null && reply.status() == 202) {
                            accepted.add(reply.json().get("orderId").asText());
                        } else {
                            refused.incrementAndGet();
                            if (reply != null && (reply.status() != 503 || reply.header("Retry-After") == null)) {
                                String body = reply.body() == null ? "" : reply.body();
                                unexpected.add(node.name() + ": " + reply.status() + " "
                                        + body.substring(0, Math.min(200, body.length())));
                            }
                        }
                        Poll.sleep(250);
                    }
                }, "partition-load-" + node.name());
                clients.add(client);
                client.start();
            }
        }

        void stop() throws InterruptedException {
            running = false;
            for (Thread client : clients) {
                client.join(60_000);
            }
        }

        String describe() {
            return "REST orders accepted " + accepted.size() + ", refused " + refused.get() + " (without Retry-After "
                    + unexpected.size() + "), slowest POST " + slowestMs.get() + " ms";
        }
    }

    private static Host host(String name) {
        return network.host(name);
    }

    private static List<String> submit(AppServerNode node, String customerPrefix, int count) {
        OrdersApi api = new OrdersApi(URI.create(node.baseUrl()), DEMO);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(api.submit(customerPrefix + i));
        }
        return ids;
    }

    /** Every order Processed within {@link #SETTLED_WITHIN}, read from the state store itself. */
    private static void awaitProcessed(List<String> orders) {
        Poll.Reading<Integer> reading = Poll.await(SETTLED_WITHIN, Duration.ofSeconds(1), () -> processed(orders),
                n -> n == orders.size());
        if (!reading.met()) {
            throw new AssertionError("Waited " + SETTLED_WITHIN + " for " + orders.size() + " orders Processed; "
                    + reading.value() + " were. The others' histories:\n" + histories(orders));
        }
    }

    private static Connection stackDatabase() throws java.sql.SQLException {
        return DriverManager.getConnection(stack.postgresHa().jdbcUrl(), LauncherOptions.EMBEDDED_DB,
                LauncherOptions.EMBEDDED_DB);
    }

    private static int processed(List<String> orders) {
        try (Connection db = stackDatabase();
             PreparedStatement q = db.prepareStatement("SELECT count(*) FROM order_state WHERE process_state = 'Processed'"
                     + " AND order_id = ANY (?)")) {
            q.setArray(1, db.createArrayOf("varchar", orders.toArray()));
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }

    /** What happened to each order of {@code orders} not Processed, from the stack's own database. */
    private static String histories(List<String> orders) {
        StringBuilder out = new StringBuilder();
        try (Connection db = stackDatabase();
             PreparedStatement q = db.prepareStatement("SELECT h.order_id, h.at, h.actor_name, h.step_name, h.from_state,"
                     + " h.to_state, h.reason FROM order_history h JOIN order_state s ON s.order_id = h.order_id"
                     + " WHERE s.process_state <> 'Processed' AND h.order_id = ANY (?) ORDER BY h.order_id, h.seq")) {
            q.setArray(1, db.createArrayOf("varchar", orders.toArray()));
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    out.append(String.format("  %s %s %s %s: %s -> %s %s%n", rs.getString(1), rs.getObject(2), rs.getString(3),
                            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7) == null ? "" : rs.getString(7)));
                }
            }
        } catch (java.sql.SQLException e) {
            out.append("  unavailable: ").append(e.getMessage());
        }
        return out.toString();
    }

    /** Each of the three steps of every order applied exactly once by the simulator. */
    private static void assertEachAppliedOnce(List<String> orders) {
        SimulatorApi simulator = simulator();
        for (String id : orders) {
            JsonNode effects = simulator.effects(id);
            assertEquals(3, effects.size(), "effects of order " + id + ": " + effects);
        }
        assertEquals(0, simulator.stats().path("appliedTwice").asLong(), "effects applied twice");
    }

    private static SimulatorApi simulator() {
        return new SimulatorApi(URI.create(stack.simulator().baseUrl()));
    }

    private static boolean ready(AppServerNode node) {
        return Wait.httpStatus(node.baseUrl() + "/health/ready") == 200;
    }

    /** The readiness answer, or null when the instance does not answer at all. */
    private static JsonNode readiness(AppServerNode node) {
        Wait.Answer answer = Wait.httpGet(node.baseUrl() + "/health/ready");
        try {
            return answer == null || answer.body().isEmpty() ? null : JSON.readTree(answer.body());
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static String check(JsonNode health, String name) {
        for (JsonNode c : health.path("checks")) {
            if (name.equals(c.path("name").asText())) {
                return c.path("status").asText();
            }
        }
        return "";
    }

    private static String free() {
        return Integer.toString(TestStack.freePort());
    }

    /**
     * The database nodes run as 'postgres' and must pass through every directory above their data directory. The
     * test stack's own is its owner's only (it holds generated passwords): let that user's group search it, as
     * the launcher does for the directory it puts the nodes in. Without this the class passed only after
     * DatabaseFailoverIT had done the same in its fork.
     */
    private static void letTheDatabaseUserThrough(java.nio.file.Path dir) throws java.io.IOException {
        var group = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName("postgres");
        java.nio.file.Files.getFileAttributeView(dir, java.nio.file.attribute.PosixFileAttributeView.class).setGroup(group);
        var permissions = java.util.EnumSet.copyOf(java.nio.file.Files.getPosixFilePermissions(dir));
        permissions.add(java.nio.file.attribute.PosixFilePermission.GROUP_EXECUTE);
        java.nio.file.Files.setPosixFilePermissions(dir, permissions);
    }
}
