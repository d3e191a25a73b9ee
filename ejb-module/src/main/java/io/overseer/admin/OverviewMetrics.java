package io.overseer.admin;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
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
 * on a pause, and the scopes paused. Sampled from the state store every 15 seconds by each instance (a
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

    private final Map<ProcessState, AtomicLong> byState = new EnumMap<>(ProcessState.class);
    private final AtomicLong parked = new AtomicLong();
    private final AtomicLong paused = new AtomicLong();

    @Inject
    MeterRegistry registry;
    @EJB
    AdminQueries queries;
    @EJB
    DispatchPauses pauses;

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
    }

    @Schedule(hour = "*", minute = "*", second = "*/15", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sample() {
        try {
            queries.counts().forEach((state, count) -> byState.get(state).set(count));
            var now = pauses.paused();
            paused.set(now.size());
            parked.set(queries.parked());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Overview metrics not sampled (the database is unreachable?); next time", e);
        }
    }
}
