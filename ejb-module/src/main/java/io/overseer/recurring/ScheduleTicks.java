package io.overseer.recurring;

import io.overseer.platform.Clocks;
import io.overseer.platform.OneAtATime;
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
 * The tick poll, every second on every instance: the schedules whose next tick may fire (one query on a
 * partial index, schedule_firing), fired a batch per transaction ({@link TickFiring}). Instances polling the
 * same rows never fire a tick twice: each batch locks its rows with SKIP LOCKED and re-checks them, and the
 * position moves on in the transaction that submits the tick's order. Non-persistent timers: the state is in
 * the rows, and an instance that was down catches up by the schedules' missed-tick policies.
 */
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class ScheduleTicks {

    private static final Logger LOG = Logger.getLogger(ScheduleTicks.class.getName());
    /** Batches per poll at most: thousands of schedules sharing a second are fired over the next polls. */
    private static final int MAX_ROUNDS = 10;

    private final OneAtATime polls = new OneAtATime(LOG, "Schedule tick poll failed; the next poll tries again");

    @Inject
    Schedules schedules;
    @EJB
    TickFiring firing;
    @Inject
    ScheduleSettings settings;
    @Inject
    Clocks clocks;

    @Schedule(hour = "*", minute = "*", second = "*", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void poll() {
        polls.run(this::rounds);
    }

    private void rounds() {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            List<String> ids = schedules.firing(clocks.now(), settings.batch());
            if (ids.isEmpty()) {
                return;
            }
            fire(ids);
            if (ids.size() < settings.batch()) {
                return;
            }
        }
    }

    /** A batch that fails is fired one schedule per transaction, so that one schedule never holds up the others. */
    private void fire(List<String> ids) {
        try {
            firing.fire(ids);
        } catch (RuntimeException batch) {
            if (ids.size() == 1) {
                LOG.log(Level.WARNING, "Schedule " + ids.get(0) + " could not fire; the next poll tries again", batch);
                return;
            }
            ids.forEach(id -> fire(List.of(id)));
        }
    }
}
