package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.launcher.AppServerNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.Rows;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import jakarta.jms.JMSException;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A part of the infrastructure fails while orders flow in over REST; subclasses say which and how.
 * PostgreSQL is the only transactional truth and JMS messages are hints sent after the database commit,
 * so an outage must not hang the HTTP clients: every {@code POST /api/orders} is answered within 5 s
 * (202, accepted into PostgreSQL, or 503 with Retry-After), processing resumes within 10 s of the
 * component's return, every accepted order ends Processed, no effect is applied twice, no message is
 * dead-lettered, and the application server is never restarted.
 *
 * <p>Load: {@value #CLIENTS} client threads at {@value #RATE_PER_SECOND} orders/s in all (unless a subclass says otherwise), each POST
 * with the 30 s timeout of {@link Http}, so a blocked submission shows as a slow POST, never a hang.
 * Durations count from the end of the warm-up (a fresh server's first answers are slow for reasons of
 * its own); 5 s of steady load precede the fault, and their slowest POST is reported beside the limit.
 * On failure the message carries the figures: POST outcomes, the slowest POSTs (start relative to the
 * fault), how long after the component's return the first order was Processed, orders by state.
 *
 * <p>The scenarios of one class share one application server: each must outlive its outage, not start
 * fresh, so the next scenario takes the server the last one left (its pid is checked per scenario). A
 * scenario that fails stops it and parks its orders, and the next one starts a new server.
 */
abstract class OutageScenario {

    private static final Logger LOG = Logger.getLogger(OutageScenario.class.getName());
    private static final int CLIENTS = 4;
    private static final int RATE_PER_SECOND = 16;
    /**
     * Orders Processed before measuring starts: a freshly started server answers its first requests
     * slowly (class loading, JIT), which says nothing about the outage.
     */
    private static final int WARM_UP_PROCESSED = 20;
    /** Steady load, measured, before the fault: the machine's own latency, for comparison. */
    private static final Duration BASELINE = Duration.ofSeconds(5);
    /** Load keeps coming this long after the component is back. */
    private static final Duration LOAD_AFTER_RETURN = Duration.ofSeconds(10);
    private static final Duration POST_LIMIT = Duration.ofSeconds(5);
    private static final Duration RESUME_LIMIT = Duration.ofSeconds(10);
    /** Every accepted order is Processed this long after the fault began. */
    private static final Duration SETTLED_AFTER_FAULT = Duration.ofSeconds(120);
    private static final int STEPS = 3;

    private static AppServerNode server;
    /** Where this scenario's part of the shared server's log begins. */
    private long logFrom;
    private String customerPrefix;
    private boolean passed;

    @AfterEach
    void afterAFailureStartAfresh() {
        if (!passed) {
            stopServer();
            LeftoverOrders.park(customerPrefix, getClass().getSimpleName());
        }
    }

    /** After the class's last scenario (a subclass whose broker goes away with its class calls it first). */
    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    interface Fault {
        /** Causes the outage and returns once the component is back (woken, or restarted and active). */
        void run() throws Exception;
    }

    /**
     * Orders that arrive by another way than the REST load (e.g. the JMS order queue), under this test's
     * customer prefix: started and stopped with the REST load, counted when waiting for the orders to
     * settle, and checked afterwards.
     */
    interface SideLoad {
        void start(String customerPrefix);

        void stop() throws InterruptedException;

        /** Orders the other way accepted: each must exist. */
        int accepted();

        /** Checks once every order has settled (none lost, none twice, each Processed). */
        List<Executable> checks();

        /** Figures for the report. */
        String describe();
    }

    /** The application server of this scenario, joined to the broker under test. */
    AppServerNode newServer(String name) {
        return SystemServers.payaraMicro(name);
    }

    /** A connection factory of the broker's operator on the broker under test (counts the DLQ). */
    org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory operatorFactory() {
        return TestStack.connectionFactory(TestStack.BROKER_OPERATOR);
    }

    /** REST orders per second, from all client threads together. */
    int ratePerSecond() {
        return RATE_PER_SECOND;
    }

    /** Null: REST only. */
    SideLoad sideLoad() {
        return null;
    }

    /** Figures of the subclass's own, computed before the checks (so that a failure reports them too). */
    String extraReport() {
        return "";
    }

    /** The customer ids of this test's orders start with this. */
    String customerPrefix() {
        return customerPrefix;
    }

    void runThrough(String name, String faultDescription, Fault fault) throws Exception {
        customerPrefix = "c-" + name + "-" + Long.toHexString(System.nanoTime()) + "-";
        SimulatorApi simulator = TestStack.simulator();
        simulator.clearFaults();
        if (server == null || !server.isAlive()) {
            stopServer();
            server = newServer(getClass().getSimpleName());
            server.start();
        }
        logFrom = java.nio.file.Files.size(server.logFile());
        long payaraPid = server.pid();
        OrdersApi api = new OrdersApi(URI.create(server.baseUrl()));

        int deadLettersBefore = deadLetters();
        Load load = new Load(api, customerPrefix, ratePerSecond());
        SideLoad side = sideLoad();
        load.start();
        if (side != null) {
            side.start(customerPrefix);
        }
        OffsetDateTime faultStart;
        OffsetDateTime componentBack;
        long faultStartNanos;
        long measuredFrom;
        try {
            Poll.until(WARM_UP_PROCESSED + " orders Processed before the fault", Duration.ofSeconds(120),
                    () -> count("s.process_state = 'Processed'") >= WARM_UP_PROCESSED);
            measuredFrom = System.nanoTime();
            Poll.sleep(BASELINE.toMillis()); // steady load before the fault: part of the scenario
            faultStart = databaseNow();
            faultStartNanos = System.nanoTime();
            fault.run();
            componentBack = databaseNow();
            LOG.info("Back " + Duration.between(faultStart, componentBack).toMillis() + " ms after the fault began");
            Poll.sleep(LOAD_AFTER_RETURN.toMillis()); // load keeps arriving for this long after the return
        } finally {
            try {
                load.stop();
            } finally {
                if (side != null) {
                    side.stop();
                }
            }
        }
        int sideAccepted = side == null ? 0 : side.accepted();

        // Wait for the orders to settle, but report the figures whatever happens.
        String settled = null;
        Duration settleLeft = SETTLED_AFTER_FAULT.minusNanos(System.nanoTime() - faultStartNanos);
        try {
            Poll.until("every order of this test to be Processed (" + SETTLED_AFTER_FAULT.toSeconds()
                    + " s after the fault)", settleLeft.isNegative() ? Duration.ZERO : settleLeft,
                    () -> count("s.process_state <> 'Processed'") == 0
                            && count("TRUE") >= load.accepted().size() + sideAccepted);
        } catch (AssertionError e) {
            settled = e.getMessage();
        }

        List<Submission> submissions = load.submissions();
        Map<String, Long> outcomes = submissions.stream()
                .collect(Collectors.groupingBy(Submission::outcome, TreeMap::new, Collectors.counting()));
        long steadyFrom = measuredFrom;
        List<Submission> measured = submissions.stream().filter(s -> s.startNanos() >= steadyFrom).toList();
        List<Submission> slowest = measured.stream()
                .sorted(Comparator.comparingLong(Submission::durationNanos).reversed()).limit(10).toList();
        List<Submission> tooSlow = measured.stream()
                .filter(s -> s.durationNanos() > POST_LIMIT.toNanos()).toList();
        long warmUpSlowestMs = submissions.stream().filter(s -> s.startNanos() < steadyFrom)
                .mapToLong(Submission::durationNanos).max().orElse(0) / 1_000_000;
        long baselineSlowestMs = measured.stream().filter(s -> s.startNanos() + s.durationNanos() < faultStartNanos)
                .mapToLong(Submission::durationNanos).max().orElse(0) / 1_000_000;
        List<Submission> unexpected = submissions.stream().filter(s -> !s.expected()).toList();
        OffsetDateTime firstProcessedAfterReturn = firstTaskProcessedAfter(componentBack);
        Duration resume = firstProcessedAfterReturn == null ? null : Duration.between(componentBack, firstProcessedAfterReturn);
        Map<String, Long> byState = statesOfThisTest();
        Set<String> accepted = Set.copyOf(load.accepted());
        long acceptedProcessed = acceptedInState(accepted, "Processed");
        long ordersInDatabase = count("TRUE");
        JsonNode stats = simulator.stats();
        long nowPid = server.pid();
        int newDeadLetters = deadLetters() - deadLettersBefore;
        List<String> log = serverLog();
        String unsettled = settled == null ? "" : describeUnsettled(log);
        List<String> cancelledTimers = log.stream().filter(line -> line.contains("EJB5119")).toList();

        String report = faultDescription + ": " + submissions.size() + " POSTs " + outcomes
                + "; slowest during warm-up " + warmUpSlowestMs + " ms, answered in the " + BASELINE.toSeconds()
                + " s before the fault " + baselineSlowestMs + " ms; slowest measured (start relative to the fault) "
                + slowest.stream().map(s -> s.describe(faultStartNanos)).toList()
                + "; over " + POST_LIMIT.toSeconds() + " s: " + tooSlow.size()
                + "; first task Processed after the return: "
                + (resume == null ? "none" : resume.toMillis() + " ms after it")
                + "; accepted (202) " + accepted.size() + ", of them Processed " + acceptedProcessed
                + "; orders in PostgreSQL " + ordersInDatabase + " by state " + byState
                + "; simulator appliedTwice " + stats.path("appliedTwice").asLong()
                + "; new dead letters " + newDeadLetters
                + "; Payara pid " + payaraPid + " → " + nowPid
                + (side == null ? "" : "; " + side.describe()) + extraReport();
        LOG.info(report);

        String settledFailure = settled;
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertTrue(tooSlow.isEmpty(), tooSlow.size() + " POST /api/orders took longer than "
                + POST_LIMIT.toSeconds() + " s (after warm-up; the slowest answered in the "
                + BASELINE.toSeconds() + " s before the fault took " + baselineSlowestMs + " ms); the slowest (start relative to the fault): "
                + slowest.stream().map(s -> s.describe(faultStartNanos)).toList()));
        checks.add(() -> assertTrue(unexpected.isEmpty(), unexpected.size()
                + " POSTs answered neither 202 nor 503 with Retry-After: "
                + unexpected.stream().limit(10).map(s -> s.describe(faultStartNanos)).toList()));
        checks.add(() -> assertTrue(resume != null && resume.compareTo(RESUME_LIMIT) <= 0,
                "processing did not resume within " + RESUME_LIMIT.toSeconds() + " s of the return: first task "
                        + "Processed after it " + (resume == null ? "never (as of now)" : resume.toMillis() + " ms later")));
        checks.add(() -> {
            if (settledFailure != null) {
                fail("not every order settled: " + settledFailure + "; this test's orders by state " + byState
                        + "; accepted (202) " + accepted.size() + ", of them Processed " + acceptedProcessed
                        + "; the unsettled: " + unsettled);
            }
        });
        checks.add(() -> assertEquals(0, stats.path("appliedTwice").asLong(), "effects applied twice: " + stats));
        checks.add(() -> assertEquals(payaraPid, nowPid, "the application server was restarted or died"));
        // The poller, the supervisor and the other timers must outlive the outage: Payara cancels a timer
        // for good after failed deliveries (EJB5119), and then nothing recovers what they would have.
        checks.add(() -> assertTrue(cancelledTimers.isEmpty(), "the container cancelled timers: " + cancelledTimers));
        // Good messages that failed during the outage are delivered again, never dead-lettered.
        checks.add(() -> assertEquals(0, newDeadLetters, "messages dead-lettered during the outage"));
        if (settled == null) {
            checks.add(() -> assertAllEffectsOnce(simulator, accepted));
            if (side != null) {
                checks.addAll(side.checks());
            }
        }
        assertAll(report, checks.stream());
        passed = true;
    }

    /**
     * This test's orders that are not Processed (at most five): their state record, their history and the
     * server's log lines that name them, so that a failure on a CI machine can be read without the machine.
     */
    private String describeUnsettled(List<String> log) {
        List<String> ids = new ArrayList<>();
        Rows.query("SELECT s.order_id FROM customer_order o JOIN order_state s ON s.order_id = o.order_id"
                + " WHERE o.customer_id LIKE ? AND s.process_state <> 'Processed' ORDER BY s.order_id LIMIT 5",
                customerPrefix + "%", rows -> ids.add(rows.getString(1)));
        StringBuilder out = new StringBuilder();
        for (String id : ids) {
            out.append(System.lineSeparator()).append("order ").append(id).append(':');
            Rows.query("SELECT process_state, locked_by, complete_by, not_before, updated_at, epoch, failure_count,"
                    + " last_error, clock_timestamp() FROM order_state WHERE order_id = ?", id, rows -> out.append(
                    String.format("%n  state %s locked_by %s complete_by %s not_before %s updated_at %s epoch %s"
                            + " failures %s last_error %s (database now %s)", rows.getString(1), rows.getString(2),
                            rows.getString(3), rows.getString(4), rows.getString(5), rows.getString(6),
                            rows.getString(7), rows.getString(8), rows.getString(9))));
            Rows.query("SELECT seq, at, step_name, from_state, to_state, actor, reason FROM order_history"
                    + " WHERE order_id = ? ORDER BY seq", id, rows -> out.append(String.format("%n  history %s %s %s %s->%s %s %s",
                    rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4), rows.getString(5),
                    rows.getString(6), rows.getString(7))));
            log.stream().filter(line -> line.contains(id)).limit(20)
                    .forEach(line -> out.append(System.lineSeparator()).append("  log ").append(line));
        }
        // What the safety nets said: a poller or supervisor that stopped working explains a stuck order.
        log.stream().filter(line -> line.contains("OrderPollers") || line.contains("stranded")
                        || line.contains("Supervisor") && line.contains("WARN")).limit(30)
                .forEach(line -> out.append(System.lineSeparator()).append("log ").append(line));
        return out.toString();
    }

    /** The shared server's log since this scenario began. */
    private List<String> serverLog() {
        try {
            byte[] log = java.nio.file.Files.readAllBytes(server.logFile());
            int from = (int) Math.min(logFrom, log.length);
            return new String(log, from, log.length - from, java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            return List.of("(server log unreadable: " + e + ")");
        }
    }

    /** Messages in the DLQ now, counted by browsing it as the broker's operator. */
    private int deadLetters() throws JMSException {
        try (var factory = operatorFactory();
             jakarta.jms.Connection connection = factory.createConnection()) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (QueueBrowser browser = session.createBrowser(session.createQueue("DLQ"))) {
                return java.util.Collections.list(browser.getEnumeration()).size();
            }
        }
    }

    private static void assertAllEffectsOnce(SimulatorApi simulator, Set<String> accepted) {
        List<String> wrong = new ArrayList<>();
        for (String id : accepted) {
            int effects = simulator.effects(id).size();
            if (effects != STEPS) {
                wrong.add(id + "=" + effects);
            }
        }
        assertTrue(wrong.isEmpty(), "orders without exactly " + STEPS + " effects: " + wrong);
    }

    /** One POST: when it started, how long it took, and what it got. */
    private record Submission(long startNanos, long durationNanos, int status, String retryAfter, String orderId,
                              String error) {

        boolean expected() {
            return status == 202 && orderId != null || status == 503 && retryAfter != null;
        }

        String outcome() {
            if (error != null) {
                return error.startsWith("timeout") ? "timeout" : "error";
            }
            return status == 503 ? (retryAfter != null ? "503+Retry-After" : "503") : Integer.toString(status);
        }

        String describe(long faultStartNanos) {
            return String.format("%.1f s at t%+.1f s: %s", durationNanos / 1e9, (startNanos - faultStartNanos) / 1e9,
                    error != null ? error : status + (retryAfter != null ? " Retry-After " + retryAfter : ""));
        }
    }

    /** Client threads submitting at a steady rate, each POST recorded; a slow POST holds up only its thread. */
    private static final class Load {

        private final OrdersApi api;
        private final String customerPrefix;
        private final ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        private final ConcurrentLinkedQueue<Submission> submissions = new ConcurrentLinkedQueue<>();
        private final AtomicInteger sequence = new AtomicInteger();
        private final int rate;
        private volatile boolean running = true;

        Load(OrdersApi api, String customerPrefix, int rate) {
            this.api = api;
            this.customerPrefix = customerPrefix;
            this.rate = rate;
        }

        void start() {
            long interval = TimeUnit.SECONDS.toNanos(1) * CLIENTS / rate;
            for (int c = 0; c < CLIENTS; c++) {
                long offset = interval * c / CLIENTS;
                clients.submit(() -> {
                    long next = System.nanoTime() + offset;
                    while (running) {
                        LockSupport.parkNanos(next - System.nanoTime());
                        submissions.add(submitOne(customerPrefix + sequence.incrementAndGet()));
                        next = Math.max(next + interval, System.nanoTime()); // pacing, no catch-up burst
                    }
                });
            }
        }

        private Submission submitOne(String customer) {
            HttpRequest.Builder request = Http.authorized(HttpRequest.newBuilder(api.base().resolve("api/orders"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(OrdersApi.order(customer, "A-1", 1))), api.credentials());
            long start = System.nanoTime();
            try {
                Http.Reply reply = Http.send(request); // 30 s timeout
                long duration = System.nanoTime() - start;
                String orderId = null;
                if (reply.status() == 202) {
                    try {
                        orderId = reply.json().path("orderId").asText(null);
                    } catch (UncheckedIOException e) {
                        orderId = null;
                    }
                }
                return new Submission(start, duration, reply.status(), reply.header("Retry-After"), orderId, null);
            } catch (UncheckedIOException e) {
                long duration = System.nanoTime() - start;
                String error = e.getCause() instanceof HttpTimeoutException
                        ? "timeout after " + duration / 1_000_000_000 + " s (no answer)"
                        : "I/O error: " + e.getCause();
                return new Submission(start, duration, -1, null, null, error);
            } catch (RuntimeException e) {
                return new Submission(start, System.nanoTime() - start, -1, null, null, e.toString());
            }
        }

        /** Stops submitting; a POST under way ends within its 30 s timeout. */
        void stop() throws InterruptedException {
            running = false;
            clients.shutdown();
            if (!clients.awaitTermination(45, TimeUnit.SECONDS)) {
                clients.shutdownNow();
                throw new AssertionError("client threads still blocked 45 s after the load stopped");
            }
            LOG.info("Load stopped after " + submissions.size() + " POSTs");
        }

        List<Submission> submissions() {
            return List.copyOf(submissions);
        }

        List<String> accepted() {
            return submissions.stream().filter(s -> s.status() == 202 && s.orderId() != null)
                    .map(Submission::orderId).toList();
        }
    }

    /** Orders of this test matching a condition on their state record {@code s}. */
    private long count(String condition) {
        return TestStack.scalar("SELECT count(*) FROM customer_order o JOIN order_state s ON s.order_id = o.order_id"
                + " WHERE o.customer_id LIKE ? AND " + condition, customerPrefix + "%");
    }

    private Map<String, Long> statesOfThisTest() {
        Map<String, Long> states = new TreeMap<>();
        Rows.query("SELECT s.process_state, count(*) FROM customer_order o JOIN order_state s ON s.order_id = o.order_id"
                + " WHERE o.customer_id LIKE ? GROUP BY s.process_state", customerPrefix + "%",
                rows -> states.put(rows.getString(1), rows.getLong(2)));
        return states;
    }

    private static long acceptedInState(Set<String> accepted, String state) {
        if (accepted.isEmpty()) {
            return 0;
        }
        try (Connection db = TestStack.db(); PreparedStatement query = db.prepareStatement(
                "SELECT count(*) FROM order_state WHERE process_state = ? AND order_id = ANY (?)")) {
            query.setString(1, state);
            query.setArray(2, db.createArrayOf("varchar", accepted.toArray()));
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first task-level Processed transition of this test's orders recorded after {@code after}. */
    OffsetDateTime firstTaskProcessedAfter(OffsetDateTime after) {
        try (Connection db = TestStack.db(); PreparedStatement query = db.prepareStatement(
                "SELECT min(h.at) FROM order_history h JOIN customer_order o ON o.order_id = h.order_id"
                        + " WHERE o.customer_id LIKE ? AND h.step_name IS NULL AND h.to_state = 'Processed' AND h.at > ?")) {
            query.setString(1, customerPrefix + "%");
            query.setObject(2, after);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getObject(1, OffsetDateTime.class);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The longest time between two of this test's orders becoming Processed within [from, to] (counting
     * from {@code from} and up to {@code to}): how long processing paused around a fault, whatever was in
     * flight. Returns the gap and where it began.
     */
    Gap longestProcessingGap(OffsetDateTime from, OffsetDateTime to) {
        List<OffsetDateTime> times = new ArrayList<>();
        times.add(from);
        try (Connection db = TestStack.db(); PreparedStatement query = db.prepareStatement(
                "SELECT h.at FROM order_history h JOIN customer_order o ON o.order_id = h.order_id"
                        + " WHERE o.customer_id LIKE ? AND h.step_name IS NULL AND h.to_state = 'Processed'"
                        + " AND h.at > ? AND h.at < ? ORDER BY h.at")) {
            query.setString(1, customerPrefix + "%");
            query.setObject(2, from);
            query.setObject(3, to);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    times.add(rows.getObject(1, OffsetDateTime.class));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        times.add(to);
        Gap longest = new Gap(Duration.ZERO, from);
        for (int i = 1; i < times.size(); i++) {
            Duration gap = Duration.between(times.get(i - 1), times.get(i));
            if (gap.compareTo(longest.length()) > 0) {
                longest = new Gap(gap, times.get(i - 1));
            }
        }
        return longest;
    }

    record Gap(Duration length, OffsetDateTime start) {
        String describe(OffsetDateTime reference) {
            return length.toMillis() + " ms from t" + String.format("%+.1f s",
                    Duration.between(reference, start).toMillis() / 1000.0);
        }
    }

    /** Now on PostgreSQL's clock, which the application stamps its history with. */
    static OffsetDateTime databaseNow() throws SQLException {
        try (Connection db = TestStack.db(); PreparedStatement query = db.prepareStatement("SELECT clock_timestamp()");
             ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getObject(1, OffsetDateTime.class);
        }
    }


    /** Sends a signal to a process and its descendants (kill -STOP / -CONT). */
    static void signalTree(long pid, String signal) {
        if (pid <= 0) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal, Long.toString(pid)));
        ProcessHandle.of(pid).ifPresent(root -> root.descendants()
                .forEach(child -> command.add(Long.toString(child.pid()))));
        try {
            Process kill = new ProcessBuilder(command).inheritIO().start();
            assertEquals(0, kill.waitFor(), String.join(" ", command));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
