package io.overseer.supervisor;

import io.micrometer.core.instrument.MeterRegistry;
import io.overseer.messaging.Courier;
import io.overseer.platform.Clocks;
import io.overseer.platform.Heartbeat;
import io.overseer.platform.HeldLease;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import io.overseer.platform.OneAtATime;
import io.overseer.platform.Progress;
import io.overseer.statestore.Sweeps;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Supervisor of the pattern: every second, on whichever instance holds the lease, finds orders
 * whose complete-by has passed and has each recovered (retried or given up) in its own transaction.
 *
 * <p>The timer is non-persistent and fires on every instance: persistent timers on Payara Micro live
 * in the data grid and did not fail over reliably. The lease row makes the sweep cluster-wide
 * single, and each recovery re-checks its row under its lock. A supervisor paused past its lease (a long
 * GC, SIGSTOP) may wake mid-sweep while another holds the lease: each recovery fences on the lease's
 * epoch in its own transaction, so the first one after the take-over is refused and the sweep stops.
 *
 * <p>Each sweep beats a {@link Heartbeat}: a timer that stops firing, or a sweep that never ends,
 * leaves expired orders unrecovered on this instance, and liveness then asks for a restart.
 */
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Supervisor {

    private static final Logger LOG = Logger.getLogger(Supervisor.class.getName());
    static final String LEASE = "supervisor";
    /** Expired attempts the supervisor retried or gave up, on this instance. */
    public static final String RECOVERIES = "overseer.supervisor.recoveries";

    private volatile boolean holdingOff;
    private Heartbeat heartbeat;
    private OneAtATime turns;

    @EJB
    JobLease lease;
    @EJB
    ExpiredStepRecovery recovery;
    @Inject
    Sweeps sweeps;
    @Inject
    Courier courier;
    @Inject
    SupervisorSettings settings;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;
    @Inject
    Progress progress;
    @Inject
    MeterRegistry metrics;

    @PostConstruct
    void watched() {
        heartbeat = progress.watch("supervisor timer");
        turns = new OneAtATime(LOG, "Supervisor sweep failed; the next sweep tries again", heartbeat);
        metrics.counter(RECOVERIES); // present from the start, at 0
    }

    @PreDestroy
    void unwatched() {
        progress.forget(heartbeat);
    }

    @Schedule(hour = "*", minute = "*", second = "*", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sweep() {
        turns.run(this::sweepOnce);
    }

    private void sweepOnce() {
        if (courier.isStalled()) {
            // The broker refuses this instance's sends: a retry could not reach an agent, and every
            // attempt expiring meanwhile would spend one of its step's retries on the outage.
            if (!holdingOff) {
                LOG.warning("Supervisor holds off while the broker is unreachable");
                holdingOff = true;
            }
            return;
        }
        holdingOff = false;
        lease.tryAcquire(LEASE, instance.id(), clocks.now(), settings.lease()).ifPresent(this::recoverExpired);
    }

    private void recoverExpired(HeldLease held) {
        List<String> expired = sweeps.expired(clocks.now(), settings.batch());
        int recovered = 0;
        int failed = 0;
        for (String orderId : expired) {
            try {
                if (recovery.recover(orderId, held)) {
                    recovered++;
                    metrics.counter(RECOVERIES).increment(); // at once: a sweep cut short still counts what it did
                }
            } catch (LeaseLostException e) {
                LOG.log(Level.WARNING, "Supervisor sweep stopped: {0}; the lease's holder sweeps now", e.getMessage());
                return;
            } catch (RuntimeException e) {
                failed++;
                LOG.log(Level.WARNING, "Could not recover order " + orderId + "; next sweep retries", e);
            }
        }
        if (!expired.isEmpty()) {
            // For the console: what the last sweep that found work did. Best effort, after the recoveries.
            lease.note(held, clocks.now(), "recovered " + recovered + " of " + expired.size() + " expired attempts"
                    + (failed == 0 ? "" : ", " + failed + " failed (retried next sweep)"));
        }
    }
}
