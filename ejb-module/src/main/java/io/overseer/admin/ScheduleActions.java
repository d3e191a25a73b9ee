package io.overseer.admin;

import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import io.overseer.recurring.ScheduleRecord;
import io.overseer.recurring.ScheduleRules;
import io.overseer.recurring.ScheduleSpec;
import io.overseer.recurring.ScheduleView;
import io.overseer.recurring.Schedules;
import io.overseer.recurring.TickOrders;
import io.overseer.submission.OrderRequest;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What operators do to recurring schedules: create one, pause it with a reason, resume it, remove it. Each
 * is one transaction under the schedule's row lock, recorded in the audit log. A schedule's order is checked
 * when the schedule is created (its workflow exists, it leaves room for the two attributes that link it to its
 * tick); the door checks each tick's order again when it fires, and a refusal pauses the schedule.
 */
@Stateless
public class ScheduleActions {

    /** Ticks a schedule's view previews. */
    public static final int PREVIEW = 5;

    @Inject
    Schedules schedules;
    @Inject
    WorkflowRegistry workflows;
    @Inject
    Clocks clocks;
    @Inject
    AuditLog audit;
    @Inject
    TickOrders tickOrders;

    /** Why a schedule could not be created or changed, in a client's terms. */
    public static class ScheduleRefusedException extends Exception {
        private static final long serialVersionUID = 1L;

        public ScheduleRefusedException(String message) {
            super(message);
        }
    }

    /**
     * The new schedule, or empty if one has this id already; it pauses itself, with an alert, once
     * {@code pauseAfterFailures} of its orders in a row end in Error (null: never).
     */
    public Optional<ScheduleView> create(ScheduleSpec spec, OrderRequest order, Integer pauseAfterFailures, String operator)
            throws ScheduleRefusedException {
        Instant now = clocks.now().toInstant();
        ScheduleRules rules;
        try {
            rules = spec.rules(now);
        } catch (IllegalArgumentException e) {
            throw new ScheduleRefusedException(e.getMessage());
        }
        String workflow = order.workflow() == null ? WorkflowRegistry.DEFAULT_WORKFLOW : order.workflow();
        if (workflows.find(workflow).isEmpty()) {
            throw new ScheduleRefusedException("order.workflow: no workflow named '" + workflow + "'");
        }
        if (order.attributesOrEmpty().size() > OrderRequest.MAX_ATTRIBUTES - 2) {
            throw new ScheduleRefusedException("order.attributes: at most " + (OrderRequest.MAX_ATTRIBUTES - 2)
                    + ": each tick's order adds '" + TickOrders.SCHEDULE_ATTRIBUTE + "' and '" + TickOrders.TICK_ATTRIBUTE + "'");
        }
        if (order.replyTo() != null || order.notBefore() != null) {
            throw new ScheduleRefusedException("order.replyTo, order.notBefore: a scheduled order has neither (its tick is"
                    + " its start; its notifications are not sent anywhere yet)");
        }
        if (schedules.find(rules.id()).isPresent()) {
            return Optional.empty();
        }
        if (pauseAfterFailures != null && pauseAfterFailures < 1) {
            throw new ScheduleRefusedException("pauseAfterFailures: at least 1, not " + pauseAfterFailures);
        }
        ScheduleRecord schedule = new ScheduleRecord(rules, workflow, Json.write(order), pauseAfterFailures, now);
        schedules.add(schedule);
        audit.record(operator, "schedule-create", rules.id(), rules.schedule().recurrence().cadence() + " in "
                + rules.schedule().recurrence().zone(), "next tick " + schedule.nextDue());
        return Optional.of(ScheduleView.of(schedule, now, PREVIEW));
    }

    public List<ScheduleView> list() {
        Instant now = clocks.now().toInstant();
        return schedules.all().stream().map(schedule -> ScheduleView.of(schedule, now, PREVIEW)).toList();
    }

    public Optional<ScheduleView> find(String id) {
        return schedules.find(id).map(schedule -> ScheduleView.of(schedule, clocks.now().toInstant(), PREVIEW));
    }

    /** Paused, saying why: no tick fires until it is resumed; the ticks meanwhile are missed ones. */
    public Optional<ScheduleView> pause(String id, String reason, String operator) {
        Instant now = clocks.now().toInstant();
        return schedules.lock(id).map(schedule -> {
            schedule.pause(reason, now);
            audit.record(operator, "schedule-pause", id, reason, "paused");
            return ScheduleView.of(schedule, now, PREVIEW);
        });
    }

    /** Resumed, saying why: the ticks it missed meanwhile follow its missed-tick policy at the next poll. */
    public Optional<ScheduleView> resume(String id, String reason, String operator) {
        Instant now = clocks.now().toInstant();
        return schedules.lock(id).map(schedule -> {
            schedule.resume(now);
            audit.record(operator, "schedule-resume", id, reason, "next tick " + schedule.nextDue());
            return ScheduleView.of(schedule, now, PREVIEW);
        });
    }

    /** Ticks one backfill submits at most: the door's batch bound, one transaction. A longer range is sent in parts. */
    public static final int MOST_BACKFILLED = 100;

    /**
     * Submits the schedule's order now, outside its ticks, keyed by this instant (a second trigger is a second
     * order); its position and its overlap policy are left alone: an operator asked for this one.
     */
    public Optional<TickOrders.TickOrder> trigger(String id, String reason, String operator) throws ScheduleRefusedException {
        Instant now = clocks.now().toInstant();
        Optional<ScheduleRecord> schedule = schedules.lock(id);
        if (schedule.isEmpty()) {
            return Optional.empty();
        }
        TickOrders.TickOrder order = submit(schedule.get(), List.of(now)).get(0);
        audit.record(operator, "schedule-trigger", id, reason, outcome(order));
        return Optional.of(order);
    }

    /**
     * Submits the orders of the schedule's ticks from {@code from} to {@code to} (both included), at most
     * {@link #MOST_BACKFILLED}: a tick that had its order already answers with it (replayed), so a backfill
     * run twice, or over ticks the schedule fired, creates nothing twice. The position is left alone.
     */
    public Optional<List<TickOrders.TickOrder>> backfill(String id, Instant from, Instant to, String reason, String operator)
            throws ScheduleRefusedException {
        if (to.isBefore(from)) {
            throw new ScheduleRefusedException("to: before from");
        }
        Optional<ScheduleRecord> schedule = schedules.lock(id);
        if (schedule.isEmpty()) {
            return Optional.empty();
        }
        List<Instant> ticks = schedule.get().rules().schedule().recurrence().ticks(from.minusNanos(1), to, MOST_BACKFILLED + 1);
        if (ticks.size() > MOST_BACKFILLED) {
            throw new ScheduleRefusedException("from, to: more than " + MOST_BACKFILLED + " ticks; backfill the range in parts"
                    + " (the " + (MOST_BACKFILLED + 1) + "th is " + ticks.get(MOST_BACKFILLED) + ")");
        }
        List<TickOrders.TickOrder> orders = ticks.isEmpty() ? List.of() : submit(schedule.get(), ticks);
        audit.record(operator, "schedule-backfill", id, reason, ticks.size() + " ticks from " + from + " to " + to + ", "
                + orders.stream().filter(o -> o.accepted() && !o.replayed()).count() + " new orders");
        return Optional.of(orders);
    }

    private List<TickOrders.TickOrder> submit(ScheduleRecord schedule, List<Instant> ticks) throws ScheduleRefusedException {
        try {
            return tickOrders.submit(schedule, ticks);
        } catch (io.overseer.submission.BatchTooLargeException e) {
            throw new ScheduleRefusedException("from, to: " + e.getMessage());
        }
    }

    private static String outcome(TickOrders.TickOrder order) {
        return order.accepted() ? "order " + order.orderId() : "refused: " + order.refusal().reason();
    }

    /** Removed: its orders stay. False if there was no such schedule. */
    public boolean remove(String id, String operator) {
        return schedules.lock(id).map(schedule -> {
            schedules.remove(schedule);
            audit.record(operator, "schedule-remove", id, "removed with its position; its orders stay", "removed");
            return true;
        }).orElse(false);
    }
}
