package io.overseer.recurring;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The schedules' meters at {@code /api/metrics}: {@value #SCHEDULES} tagged {@code state} (active, paused),
 * {@value #TICKS} tagged {@code outcome} (fired, missed, overlapped) — the totals the schedules' rows keep,
 * which move in the transactions that fire the ticks, so they count what happened, cluster-wide, sampled
 * every 15 s (take one instance's figure, not the sum; a schedule removed takes its counts with it) — and
 * {@value #LAG}, a timer of how late after its fire time each tick's order was submitted, on the instance
 * that fired it.
 */
@Singleton
@Startup // its gauges are at /api/metrics from the deployment, not from the first sample
@DependsOn("SchemaMigration")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class ScheduleMetrics {

    private static final Logger LOG = Logger.getLogger(ScheduleMetrics.class.getName());
    public static final String SCHEDULES = "overseer.schedules";
    public static final String TICKS = "overseer.schedule.ticks";
    public static final String LAG = "overseer.schedule.lag";

    private final AtomicLong active = new AtomicLong();
    private final AtomicLong paused = new AtomicLong();
    private final AtomicLong fired = new AtomicLong();
    private final AtomicLong missed = new AtomicLong();
    private final AtomicLong overlapped = new AtomicLong();

    @Inject
    MeterRegistry registry;
    @Inject
    Schedules schedules;

    @PostConstruct
    void register() {
        Gauge.builder(SCHEDULES, active, AtomicLong::get).tag("state", "active")
                .description("Recurring schedules (cluster-wide, sampled every 15 s)").register(registry);
        Gauge.builder(SCHEDULES, paused, AtomicLong::get).tag("state", "paused")
                .description("Recurring schedules (cluster-wide, sampled every 15 s)").register(registry);
        tickGauge("fired", fired);
        tickGauge("missed", missed);
        tickGauge("overlapped", overlapped);
    }

    private void tickGauge(String outcome, AtomicLong value) {
        Gauge.builder(TICKS, value, AtomicLong::get).tag("outcome", outcome)
                .description("Ticks of the schedules there are: fired (an order), missed, skipped for overlapping").register(registry);
    }

    @Schedule(hour = "*", minute = "*", second = "*/15", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sample() {
        try {
            Schedules.Totals totals = schedules.totals();
            active.set(totals.schedules() - totals.paused());
            paused.set(totals.paused());
            fired.set(totals.fired());
            missed.set(totals.missed());
            overlapped.set(totals.overlapped());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Schedule metrics not sampled (the database is unreachable?); next time", e);
        }
    }

    /** A tick's order submitted {@code late} after the tick's fire time. */
    static void lag(MeterRegistry registry, Duration late) {
        Timer.builder(LAG).description("From a tick's fire time to its order's submission")
                .register(registry).record(late.isNegative() ? Duration.ZERO : late);
    }
}
