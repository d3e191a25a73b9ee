package io.overseer.recurring;

import io.micrometer.core.instrument.MeterRegistry;
import io.overseer.notification.AlertPublisher;
import io.overseer.platform.Clocks;
import io.overseer.submission.BatchResult;
import io.overseer.submission.BatchTooLargeException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Fires the due ticks of a batch of schedules in one transaction: each schedule locked (SKIP LOCKED: another
 * instance firing it keeps it), planned at now, its ticks' orders submitted ({@link TickOrders}) and its position moved
 * on — all in that transaction, so that a crash loses or repeats nothing, each order keyed by its schedule
 * and tick, so that no path creates a second order for a tick.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class TickFiring {

    private static final Logger LOG = Logger.getLogger(TickFiring.class.getName());
    @Inject
    Schedules schedules;
    @Inject
    TickOrders orders;
    @Inject
    AlertPublisher alerts;
    @Inject
    ScheduleSettings settings;
    @Inject
    Clocks clocks;
    @Inject
    MeterRegistry registry;

    /** Returns how many orders the batch's ticks submitted. */
    public int fire(List<String> ids) {
        var now = clocks.now();
        List<ScheduleRecord> locked = schedules.lockFiring(ids, now);
        Map<String, String> lastStates = schedules.states(
                locked.stream().map(ScheduleRecord::lastOrderId).filter(Objects::nonNull).toList());
        int submitted = 0;
        for (ScheduleRecord schedule : locked) {
            List<Instant> ticks = schedule.plan(now.toInstant(), settings.onTime(),
                    schedule.lastOrderId() == null ? null : lastStates.get(schedule.lastOrderId()));
            if (schedule.pausedReason() != null) {
                paused(schedule);
            } else if (!ticks.isEmpty()) {
                submitted += submit(schedule, ticks, now.toInstant());
            }
        }
        return submitted;
    }

    /** A schedule that stopped itself: an operator must look (an alert on the alerts topic, after the commit). */
    private void paused(ScheduleRecord schedule) {
        alerts.raise(null, "schedule-paused", "schedule " + schedule.scheduleId() + " paused: " + schedule.pausedReason());
    }

    private int submit(ScheduleRecord schedule, List<Instant> ticks, Instant now) {
        List<TickOrders.TickOrder> answered;
        try {
            answered = orders.submit(schedule, ticks);
        } catch (BatchTooLargeException e) {
            throw new IllegalStateException("schedule " + schedule.scheduleId() + ": more ticks at once than the door takes", e);
        }
        int accepted = 0;
        for (TickOrders.TickOrder order : answered) {
            if (order.accepted()) {
                schedule.fired(order.orderId());
                ScheduleMetrics.lag(registry, Duration.between(schedule.rules().schedule().jitter().fireAt(schedule.scheduleId(),
                        order.tick()), now));
                accepted += order.replayed() ? 0 : 1;
            } else if (order.refusal().kind() == BatchResult.Refusal.Kind.KEY_REUSED) {
                LOG.log(Level.INFO, "Schedule {0}: tick {1} already had its order", new Object[] {schedule.scheduleId(), order.tick()});
            } else {
                // An order the door refuses would be refused at every tick: the schedule stops, saying why.
                String reason = "tick " + order.tick() + ": its order was refused: " + order.refusal().reason();
                schedule.pause(reason.length() > 500 ? reason.substring(0, 500) : reason, now);
                paused(schedule);
                break;
            }
        }
        return accepted;
    }
}
