package io.overseer.recurring;

import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.platform.Json;
import io.overseer.submission.BatchOrder;
import io.overseer.submission.BatchResult;
import io.overseer.submission.BatchSource;
import io.overseer.submission.BatchTooLargeException;
import io.overseer.submission.OrderRequest;
import io.overseer.submission.OrderSubmission;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A schedule's orders for given ticks, through the door ({@link OrderSubmission}, in the caller's
 * transaction): each the schedule's order with the attributes {@value #SCHEDULE_ATTRIBUTE} and
 * {@value #TICK_ATTRIBUTE}, keyed by its tick in the schedule's scope, so that a tick submitted again — by
 * another instance, a retry, a backfill — answers with its first order. The one way ticks become orders:
 * the poll's firing, an operator's trigger and backfill.
 */
@ApplicationScoped
public class TickOrders {

    /** The attributes that link an order to its schedule and tick. */
    public static final String SCHEDULE_ATTRIBUTE = "schedule";
    public static final String TICK_ATTRIBUTE = "schedule.tick";

    @Inject
    OrderSubmission submission;

    /** What the door answered for a tick: its order (new or the tick's earlier one), or why it refused. */
    public record TickOrder(Instant tick, String orderId, boolean replayed, BatchResult.Refusal refusal) {

        public boolean accepted() {
            return refusal == null;
        }
    }

    /** At most the door's batch bound ({@code overseer.submission.max-batch}) ticks at once. */
    public List<TickOrder> submit(ScheduleRecord schedule, List<Instant> ticks) throws BatchTooLargeException {
        OrderRequest body = Json.read(schedule.orderBody(), OrderRequest.class);
        List<BatchOrder> orders = new ArrayList<>(ticks.size());
        for (int i = 0; i < ticks.size(); i++) {
            orders.add(BatchOrder.of(i, ofTick(body, schedule.scheduleId(), ticks.get(i)), ticks.get(i).toString()));
        }
        List<BatchResult> results;
        try {
            results = submission.submitAll(orders, BatchSource.schedule(schedule.scheduleId()));
        } catch (BrokerUnavailableException e) { // only a reply-to's owner is asked of the broker; a schedule names none
            throw new IllegalStateException("schedule " + schedule.scheduleId() + ": its ticks could not be submitted", e);
        }
        List<TickOrder> answered = new ArrayList<>(results.size());
        for (BatchResult result : results) {
            answered.add(new TickOrder(ticks.get(result.index()), result.orderId(), result.replayed(), result.refusal()));
        }
        return answered;
    }

    /** The schedule's order for one tick: its body, with the schedule and the tick among its attributes. */
    static OrderRequest ofTick(OrderRequest body, String scheduleId, Instant tick) {
        Map<String, String> attributes = new LinkedHashMap<>(body.attributesOrEmpty());
        attributes.put(SCHEDULE_ATTRIBUTE, scheduleId);
        attributes.put(TICK_ATTRIBUTE, tick.toString());
        return new OrderRequest(body.customerId(), body.items(), body.workflow(), body.replyTo(), body.notBefore(), attributes);
    }
}
