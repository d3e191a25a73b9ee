package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.support.OrdersApi;
import io.overseer.support.SimulatorApi;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.TextMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * A legacy client on the JMS order queue, as docs/jms.md describes it: one thread,
 * {@code ratePerSecond} orders, each with an {@code idempotencyKey} and a duplicate id equal to its customer id.
 * A send that fails (a failover under way: "may have been successful") is sent again, the same message on a
 * new connection, until the broker takes it: the key makes the resend harmless, so each customer must end
 * with exactly one order. Accepted means a send returned normally.
 */
final class JmsOrderLoad implements OutageScenario.SideLoad {

    private static final Logger LOG = Logger.getLogger(JmsOrderLoad.class.getName());
    private static final int STEPS = 3;

    /** Where the checks read the orders: the state store of the stack under test. */
    interface StateStore {
        Connection connect() throws SQLException;
    }

    private final ActiveMQConnectionFactory factory;
    private final int ratePerSecond;
    private final StateStore store;
    private final Supplier<SimulatorApi> simulator;
    private final ConcurrentLinkedQueue<String> accepted = new ConcurrentLinkedQueue<>();
    private final AtomicInteger resends = new AtomicInteger();
    private final AtomicInteger sequence = new AtomicInteger();
    private volatile long slowestSendNanos;
    private volatile boolean running;
    private Thread thread;
    private String prefix;

    /** Against the shared test stack's database and simulator. */
    JmsOrderLoad(String url, String user, String password, int ratePerSecond) {
        this(url, user, password, ratePerSecond, TestStack::db, TestStack::simulator);
    }

    JmsOrderLoad(String url, String user, String password, int ratePerSecond, StateStore store, Supplier<SimulatorApi> simulator) {
        this.factory = new ActiveMQConnectionFactory(url, user, password);
        this.ratePerSecond = ratePerSecond;
        this.store = store;
        this.simulator = simulator;
    }

    @Override
    public void start(String customerPrefix) {
        prefix = customerPrefix + "jms-";
        running = true;
        thread = new Thread(this::run, "jms-order-load");
        thread.start();
    }

    private void run() {
        long interval = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
        long next = System.nanoTime();
        JMSContext jms = null;
        while (running) {
            LockSupport.parkNanos(next - System.nanoTime());
            String customer = prefix + sequence.incrementAndGet();
            long start = System.nanoTime();
            while (running) {
                try {
                    if (jms == null) {
                        jms = factory.createContext();
                    }
                    TextMessage message = jms.createTextMessage(OrdersApi.order(customer, "A-1", 1));
                    message.setStringProperty("idempotencyKey", customer);
                    message.setStringProperty(Message.HDR_DUPLICATE_DETECTION_ID.toString(), customer);
                    jms.createProducer().send(jms.createQueue("orders"), message); // persistent: returns once stored
                    accepted.add(customer);
                    break;
                } catch (JMSRuntimeException | JMSException e) {
                    resends.incrementAndGet();
                    LOG.info("JMS send of " + customer + " failed (" + e + "); sending it again");
                    if (jms != null) {
                        try {
                            jms.close();
                        } catch (RuntimeException ignored) {
                            // the connection is already broken
                        }
                        jms = null;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                }
            }
            slowestSendNanos = Math.max(slowestSendNanos, System.nanoTime() - start);
            next = Math.max(next + interval, System.nanoTime());
        }
        if (jms != null) {
            jms.close();
        }
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(60));
        if (thread.isAlive()) {
            thread.interrupt();
            throw new AssertionError("the JMS client is still blocked 60 s after the load stopped");
        }
        factory.close();
    }

    @Override
    public int accepted() {
        return accepted.size();
    }

    @Override
    public String describe() {
        return "JMS orders accepted " + accepted.size() + " (sent again after a failure " + resends.get()
                + " times), slowest accepted send " + slowestSendNanos / 1_000_000 + " ms";
    }

    /** Each accepted customer has one order, Processed, with one effect per step in the simulator's ledger. */
    /**
     * Waits until every accepted order has reached a final state (or {@code within} has passed), so that
     * {@link #checks} judge where the orders ended, not where they were: a test that waited for other orders
     * first may read these a moment before their last reply is applied.
     */
    public void awaitFinal(java.time.Duration within) {
        io.overseer.support.Poll.await(within, java.time.Duration.ofSeconds(1), () -> {
            try {
                Map<String, List<String>> orders = ordersByCustomer();
                return accepted.stream().allMatch(c -> orders.getOrDefault(c, List.of()).stream()
                        .anyMatch(o -> o.endsWith(" Processed") || o.endsWith(" Compensated") || o.endsWith(" Error")));
            } catch (SQLException e) {
                return false;
            }
        }, done -> done);
    }

    @Override
    public List<Executable> checks() {
        return List.of(() -> {
            Map<String, String> wrong = new TreeMap<>();
            Map<String, List<String>> orders = ordersByCustomer();
            for (String customer : accepted) {
                List<String> found = orders.getOrDefault(customer, List.of());
                if (found.size() != 1) {
                    wrong.put(customer, found.size() + " orders");
                    continue;
                }
                String[] order = found.get(0).split(" ");
                int effects = simulator.get().effects(order[0]).size();
                if (!"Processed".equals(order[1]) || effects != STEPS) {
                    wrong.put(customer, order[1] + ", " + effects + " effects");
                }
            }
            assertTrue(wrong.isEmpty(), "JMS orders not exactly once, Processed, with " + STEPS + " effects: " + wrong);
        });
    }

    /** customer → "orderId state" of each of its orders. */
    private Map<String, List<String>> ordersByCustomer() throws SQLException {
        Map<String, List<String>> orders = new TreeMap<>();
        try (Connection db = store.connect(); PreparedStatement query = db.prepareStatement(
                "SELECT o.customer_id, o.order_id, s.process_state FROM customer_order o"
                        + " JOIN order_state s ON s.order_id = o.order_id WHERE o.customer_id LIKE ?")) {
            query.setString(1, prefix + "%");
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    orders.computeIfAbsent(rows.getString(1), c -> new ArrayList<>())
                            .add(rows.getString(2) + " " + rows.getString(3));
                }
            }
        }
        return orders;
    }
}
