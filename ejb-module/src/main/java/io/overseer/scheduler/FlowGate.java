package io.overseer.scheduler;

import io.micrometer.core.instrument.MeterRegistry;
import io.overseer.agent.FlowLimits;
import io.overseer.statestore.FlowLimiter;
import io.overseer.statestore.FlowWindows;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;

/**
 * The flow limits of one scheduler transaction, enforced in PostgreSQL. The first attempt of a limited
 * operation the transaction would start locks the limited operations' flow_limit rows (so the instances
 * admit their attempts one transaction at a time) and reads the attempts running now and the starts of
 * the current second; then each attempt is admitted — counted, the window written back — or told when to try again:
 * the next second for the rate, a moment later for the in-flight limit (a freed slot announces waiting
 * records sooner, {@link Scheduler}). Not thread-safe: one per transaction.
 */
final class FlowGate implements FlowLimiter {

    /** When a full in-flight limit is tried again if no freed slot announces the record first. */
    static final Duration IN_FLIGHT_RETRY = Duration.ofSeconds(1);

    /** Attempts held back by a flow limit, per operation (each hold of a record, not each record). */
    static final String LIMITED = "overseer.flow.limited";

    private final FlowWindows store;
    private final FlowLimits limits;
    private final MeterRegistry metrics;
    private final Map<String, Window> windows = new HashMap<>();

    private static final class Window {
        OffsetDateTime start;
        int starts;
        long running;
    }

    FlowGate(FlowWindows store, FlowLimits limits, MeterRegistry metrics) {
        this.store = store;
        this.limits = limits;
        this.metrics = metrics;
    }

    @Override
    public boolean limits(String operation) {
        return limits.limits(operation);
    }

    /**
     * Every limited operation's row, in name order, at the first admission of the transaction: two
     * transactions that start attempts of two limited operations then never wait for each other in
     * opposite orders (a deadlock). Few rows, and only where a limit applies.
     */
    private void lockAll() {
        for (FlowLimits.FlowLimit limit : limits.all()) {
            FlowWindows.FlowWindow read = store.lockFlowWindow(limit.operation());
            Window window = new Window();
            window.start = read.start();
            window.starts = read.starts();
            window.running = read.running();
            windows.put(limit.operation(), window);
        }
    }

    @Override
    public OffsetDateTime admit(String operation, OffsetDateTime now) {
        FlowLimits.FlowLimit limit = limits.of(operation).orElse(null);
        if (limit == null) {
            return null;
        }
        if (windows.isEmpty()) {
            lockAll();
        }
        Window window = windows.get(operation);
        OffsetDateTime second = now.truncatedTo(ChronoUnit.SECONDS);
        if (window.start == null || !window.start.isEqual(second)) {
            window.start = second;
            window.starts = 0;
        }
        if (limit.inFlight() != null && window.running >= limit.inFlight()) {
            metrics.counter(LIMITED, "operation", operation).increment();
            return now.plus(IN_FLIGHT_RETRY);
        }
        if (limit.perSecond() != null && window.starts >= limit.perSecond()) {
            metrics.counter(LIMITED, "operation", operation).increment();
            return second.plusSeconds(1);
        }
        window.running++;
        window.starts++;
        store.saveFlowWindow(operation, window.start, window.starts);
        return null;
    }
}
