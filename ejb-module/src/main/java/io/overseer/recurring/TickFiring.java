package io.overseer.recurring;

import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import io.overseer.submission.BatchOrder;
import io.overseer.submission.BatchResult;
import io.overseer.submission.BatchSource;
import io.overseer.submission.BatchTooLargeException;
import io.overseer.submission.OrderRequest;
import io.overseer.submission.OrderSubmission;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Fires the due ticks of a batch of schedules in one transaction: each schedule locked (SKIP LOCKED: another
 * instance firing it keeps it), planned at now, its ticks' orders submitted and its position moved on — all
 * in that transaction, so that a crash loses or repeats nothing, and each order keyed by its schedule and tick
 * ({@link BatchSource#schedule}), so that no path creates a second order for a tick.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class TickFiring {

    private static final Logger LOG = Logger.getLogger(TickFiring.class.getName());
    /** The attributes that link an order to its schedule and tick. */
    public static final String SCHEDULE_ATTRIBUTE = "schedule";
    public static final String TICK_ATTRIBUTE = "schedule.tick";

    @Inject
    Schedules schedules;
    @EJB
    OrderSubmission submission;
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
        Set<String> unfinished = Set.copyOf(schedules.unfinished(
                locked.stream().map(ScheduleRecord::lastOrderId).filter(Objects::nonNull).toList()));
        int submitted = 0;
        for (ScheduleRecord schedule : locked) {
            boolean busy = schedule.lastOrderId() != null && unfinished.contains(schedule.lastOrderId());
            List<Instant> ticks = schedule.plan(now.toInstant(), settings.onTime(), busy);
            if (!ticks.isEmpty()) {
                submitted += submit(schedule, ticks, now.toInstant());
            }
        }
        return submitted;
    }

    private int submit(ScheduleRecord schedule, List<Instant> ticks, Instant now) {
        OrderRequest body = Json.read(schedule.orderBody(), OrderRequest.class);
        List<BatchOrder> orders = new ArrayList<>(ticks.size());
        for (int i = 0; i < ticks.size(); i++) {
            orders.add(BatchOrder.of(i, ofTick(body, schedule.scheduleId(), ticks.get(i)), ticks.get(i).toString()));
        }
        List<BatchResult> results;
        try {
            results = submission.submitAll(orders, BatchSource.schedule(schedule.scheduleId()));
        } catch (BatchTooLargeException | BrokerUnavailableException e) {
            throw new IllegalStateException("schedule " + schedule.scheduleId() + ": its ticks could not be submitted", e);
        }
        int accepted = 0;
        for (BatchResult result : results) {
            Instant tick = ticks.get(result.index());
            if (result.accepted()) {
                schedule.fired(result.orderId());
                ScheduleMetrics.lag(registry, Duration.between(schedule.rules().schedule().jitter().fireAt(schedule.scheduleId(), tick), now));
                accepted += result.replayed() ? 0 : 1;
            } else if (result.refusal().kind() == BatchResult.Refusal.Kind.KEY_REUSED) {
                LOG.log(Level.INFO, "Schedule {0}: tick {1} already had its order", new Object[] {schedule.scheduleId(), tick});
            } else {
                // An order the door refuses would be refused at every tick: the schedule stops, saying why.
                String reason = "tick " + tick + ": its order was refused: " + result.refusal().reason();
                schedule.pause(reason.length() > 500 ? reason.substring(0, 500) : reason, now);
                LOG.log(Level.WARNING, "Schedule {0} paused: {1}", new Object[] {schedule.scheduleId(), reason});
                break;
            }
        }
        return accepted;
    }

    /** The schedule's order for one tick: its body, with the schedule and the tick among its attributes. */
    static OrderRequest ofTick(OrderRequest body, String scheduleId, Instant tick) {
        Map<String, String> attributes = new LinkedHashMap<>(body.attributesOrEmpty());
        attributes.put(SCHEDULE_ATTRIBUTE, scheduleId);
        attributes.put(TICK_ATTRIBUTE, tick.toString());
        return new OrderRequest(body.customerId(), body.items(), body.workflow(), body.replyTo(), body.notBefore(), attributes);
    }
}
