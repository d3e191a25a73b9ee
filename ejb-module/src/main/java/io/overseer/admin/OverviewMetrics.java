package io.overseer.admin;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.messaging.QueueStats;
import io.overseer.statestore.ProcessState;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the console's overview shows, as meters at {@code /api/metrics}: orders by state, orders parked
 * on a pause, the scopes paused, the depth and consumers of the application's queues (-1 until the
 * broker first answers), and the state store's size per table ({@link StoreSize}). Sampled from the state store every 15 seconds by each instance (a
 * scrape never waits for the database, and every instance reports the same cluster-wide figures, so
 * take one instance's, not their sum). Step latencies, retries and failures per operation are the
 * agents' meters ({@link io.overseer.agent.AgentMetrics}); supervisor recoveries are counted by the
 * supervisor itself.
 */
@Singleton
@DependsOn("SchemaMigration")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class OverviewMetrics {

    private static final Logger LOG = Logger.getLogger(OverviewMetrics.class.getName());
    public static final String ORDERS = "overseer.orders";
    public static final String PARKED = "overseer.orders.parked";
    public static final String PAUSED = "overseer.dispatch.paused";
    public static final String QUEUE_MESSAGES = "overseer.broker.queue.messages";
    public static final String QUEUE_CONSUMERS = "overseer.broker.queue.consumers";

    private final Map<ProcessState, AtomicLong> byState = new EnumMap<>(ProcessState.class);
    private final AtomicLong parked = new AtomicLong();
    private final AtomicLong paused = new AtomicLong();
    private final Map<String, AtomicLong> queueMessages = new java.util.HashMap<>();
    private final Map<String, AtomicLong> queueConsumers = new java.util.HashMap<>();
    private final Map<String, AtomicLong> flowRunning = new java.util.HashMap<>();
    private final Map<String, AtomicLong> flowWaiting = new java.util.HashMap<>();
    public static final String FLOW_IN_FLIGHT = "overseer.flow.in_flight";
    public static final String FLOW_WAITING = "overseer.flow.waiting";
    public static final String STORE_ROWS = "overseer.store.rows";
    public static final String STORE_DEAD_ROWS = "overseer.store.dead_rows";
    public static final String STORE_BYTES = "overseer.store.bytes";
    public static final String STORE_OLDEST_FINISHED = "overseer.store.oldest_finished.age";
    /** Per table and figure ("rows|order_state"), registered as each table is first seen. */
    private final Map<String, AtomicLong> storeGauges = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicLong oldestFinishedAge = new AtomicLong(-1);

    @Inject
    MeterRegistry registry;
    @Inject
    io.overseer.agent.FlowLimits flowLimits;
    @Inject
    io.overseer.statestore.StateStore store;
    @Inject
    io.overseer.statestore.FlowWindows flowWindows;
    @EJB
    AdminQueries queries;
    @EJB
    DispatchPauses pauses;
    @EJB
    BrokerQueues brokerQueues;
    @EJB
    StoreSize storeSize;
    @Inject
    io.overseer.platform.Clocks clocks;

    @PostConstruct
    void register() {
        for (ProcessState state : ProcessState.values()) {
            AtomicLong count = new AtomicLong();
            byState.put(state, count);
            Gauge.builder(ORDERS, count, AtomicLong::get).tag("state", state.name())
                    .description("Orders in each state (cluster-wide, sampled every 15 s)").register(registry);
        }
        Gauge.builder(PARKED, parked, AtomicLong::get)
                .description("Orders waiting for a paused operation (cluster-wide)").register(registry);
        Gauge.builder(PAUSED, paused, AtomicLong::get)
                .description("Operations (or \"all\") whose dispatch an operator has paused").register(registry);
        for (var limit : flowLimits.all()) {
            AtomicLong running = new AtomicLong();
            AtomicLong waiting = new AtomicLong();
            flowRunning.put(limit.operation(), running);
            flowWaiting.put(limit.operation(), waiting);
            Gauge.builder(FLOW_IN_FLIGHT, running, AtomicLong::get).tag("operation", limit.operation())
                    .description("Attempts of a flow-limited operation running now (cluster-wide)").register(registry);
            Gauge.builder(FLOW_WAITING, waiting, AtomicLong::get).tag("operation", limit.operation())
                    .description("Orders waiting for the operation's flow limit (cluster-wide)").register(registry);
        }
        Gauge.builder(STORE_OLDEST_FINISHED, oldestFinishedAge, AtomicLong::get).baseUnit("seconds")
                .description("Age of the oldest finished order kept (Processed or Compensated); -1 when none is").register(registry);
        for (String queue : BrokerQueues.QUEUES) {
            queueMessages.put(queue, gauge(QUEUE_MESSAGES, queue, "Messages in the queue, as broker management counts them"));
            queueConsumers.put(queue, gauge(QUEUE_CONSUMERS, queue, "Consumers attached to the queue"));
        }
    }

    private AtomicLong gauge(String name, String queue, String description) {
        AtomicLong value = new AtomicLong(-1); // -1 until the broker first answers
        Gauge.builder(name, value, AtomicLong::get).tag("queue", queue).description(description).register(registry);
        return value;
    }

    @Schedule(hour = "*", minute = "*", second = "*/15", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sample() {
        try {
            queries.counts().forEach((state, count) -> byState.get(state).set(count));
            var now = pauses.paused();
            paused.set(now.size());
            parked.set(queries.parked());
            flowRunning.forEach((operation, running) -> running.set(flowWindows.runningOf(operation)));
            flowWaiting.forEach((operation, waiting) -> waiting.set(store.throttledCount(operation)));
            sampleStore(storeSize.size());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Overview metrics not sampled (the database is unreachable?); next time", e);
        }
        try {
            for (QueueStats queue : brokerQueues.queues()) {
                AtomicLong messages = queueMessages.get(queue.name());
                AtomicLong consumers = queueConsumers.get(queue.name());
                if (messages != null && consumers != null) {
                    messages.set(queue.messageCount());
                    consumers.set(queue.consumerCount());
                }
            }
        } catch (BrokerUnavailableException | RuntimeException e) {
            LOG.log(Level.FINE, "Queue depths not sampled (the broker is unreachable?); next time", e);
        }
    }

    /** Each table's rows, dead rows and bytes (table and indexes apart), and the oldest finished order's age. */
    private void sampleStore(StoreSize.Size size) {
        for (StoreSize.Table table : size.tables()) {
            storeGauge(STORE_ROWS, table.table(), null, "Rows of the state store's table (PostgreSQL's estimate)")
                    .set(table.rows());
            storeGauge(STORE_DEAD_ROWS, table.table(), null, "Dead rows of the table, not yet vacuumed").set(table.deadRows());
            storeGauge(STORE_BYTES, table.table(), "table", "Bytes of the table (TOAST included) or of its indexes")
                    .set(table.tableBytes());
            storeGauge(STORE_BYTES, table.table(), "indexes", "Bytes of the table (TOAST included) or of its indexes")
                    .set(table.indexBytes());
        }
        oldestFinishedAge.set(size.oldestFinished() == null ? -1
                : Math.max(0, java.time.Duration.between(size.oldestFinished(), clocks.now()).toSeconds()));
    }

    private AtomicLong storeGauge(String name, String table, String part, String description) {
        return storeGauges.computeIfAbsent(name + "|" + table + "|" + part, key -> {
            AtomicLong value = new AtomicLong();
            Gauge.Builder<AtomicLong> gauge = Gauge.builder(name, value, AtomicLong::get).tag("table", table).description(description);
            if (part != null) {
                gauge.tag("part", part).baseUnit("bytes");
            }
            gauge.register(registry);
            return value;
        });
    }
}
