package io.overseer.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overseer.messaging.Courier;
import io.overseer.platform.Clocks;
import io.overseer.platform.HeldLease;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.JobLease;
import io.overseer.platform.LeaseLostException;
import io.overseer.platform.Progress;
import io.overseer.statestore.Sweeps;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The sweep's loop: what one failed recovery stops, and what it does not. */
class SupervisorTest {

    private static final HeldLease HELD = new HeldLease(Supervisor.LEASE, "instance-1", 7);

    private final List<String> attempted = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    @Test
    void aSweepStopsAtTheFirstRecoveryItsLeaseNoLongerCoversButNotAtAFailedOne() {
        Supervisor supervisor = supervisor(List.of("o-1", "o-2", "o-3", "o-4"), orderId -> {
            if (orderId.equals("o-1")) {
                throw new IllegalStateException("one bad row");
            }
            if (orderId.equals("o-3")) {
                throw new LeaseLostException(HELD);
            }
        });

        supervisor.sweep();

        assertEquals(List.of("o-1", "o-2", "o-3"), attempted, "every recovery carried the tenure; none after it ended");
        assertEquals(List.of(), notes, "a sweep cut short by a lost lease leaves no note");
    }

    @Test
    void aSweepThatFoundWorkNotesWhatItRecoveredAndCountsIt() {
        Supervisor supervisor = supervisor(List.of("o-1", "o-2", "o-3"), orderId -> {
            if (orderId.equals("o-2")) {
                throw new IllegalStateException("one bad row");
            }
        });

        supervisor.sweep();

        assertEquals(List.of("recovered 2 of 3 expired attempts, 1 failed (retried next sweep)"), notes);
        assertEquals(2.0, supervisor.metrics.counter(Supervisor.RECOVERIES).count());
    }

    @FunctionalInterface
    private interface Recovery {
        void recover(String orderId) throws LeaseLostException;
    }

    private Supervisor supervisor(List<String> expired, Recovery recovery) {
        Supervisor supervisor = new Supervisor();
        supervisor.lease = new JobLease() {
            @Override
            public Optional<HeldLease> tryAcquire(String job, String holder, OffsetDateTime now, Duration ttl) {
                return Optional.of(HELD);
            }

            @Override
            public void note(HeldLease lease, OffsetDateTime at, String note) {
                notes.add(note);
            }
        };
        supervisor.metrics = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        supervisor.recovery = new ExpiredStepRecovery() {
            @Override
            public boolean recover(String orderId, HeldLease lease) throws LeaseLostException {
                attempted.add(lease == HELD ? orderId : orderId + " under another lease");
                recovery.recover(orderId);
                return true;
            }
        };
        supervisor.sweeps = new Sweeps() {
            @Override
            public List<String> expired(OffsetDateTime now, int limit) {
                return expired;
            }
        };
        supervisor.courier = new Courier() {
            @Override
            public boolean isStalled() {
                return false;
            }
        };
        supervisor.settings = new SupervisorSettings();
        supervisor.instance = new InstanceIdentity() {
            @Override
            public synchronized String id() {
                return HELD.holder();
            }
        };
        supervisor.clocks = new Clocks();
        supervisor.progress = new Progress();
        supervisor.watched(); // @PostConstruct, as the container calls it
        return supervisor;
    }
}
