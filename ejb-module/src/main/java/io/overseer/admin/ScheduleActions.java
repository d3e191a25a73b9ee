package io.overseer.admin;

import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import io.overseer.recurring.ScheduleRecord;
import io.overseer.recurring.ScheduleRules;
import io.overseer.recurring.ScheduleSpec;
import io.overseer.recurring.ScheduleView;
import io.overseer.recurring.Schedules;
import io.overseer.recurring.TickFiring;
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

    /** Why a schedule could not be created or changed, in a client's terms. */
    public static class ScheduleRefusedException extends Exception {
        private static final long serialVersionUID = 1L;

        public ScheduleRefusedException(String message) {
            super(message);
        }
    }

    /** The new schedule, or empty if one has this id already. */
    public Optional<ScheduleView> create(ScheduleSpec spec, OrderRequest order, String operator) throws ScheduleRefusedException {
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
                    + ": each tick's order adds '" + TickFiring.SCHEDULE_ATTRIBUTE + "' and '" + TickFiring.TICK_ATTRIBUTE + "'");
        }
        if (order.replyTo() != null || order.notBefore() != null) {
            throw new ScheduleRefusedException("order.replyTo, order.notBefore: a scheduled order has neither (its tick is"
                    + " its start; its notifications are not sent anywhere yet)");
        }
        if (schedules.find(rules.id()).isPresent()) {
            return Optional.empty();
        }
        ScheduleRecord schedule = new ScheduleRecord(rules, workflow, Json.write(order), now);
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

    /** Removed: its orders stay. False if there was no such schedule. */
    public boolean remove(String id, String operator) {
        return schedules.lock(id).map(schedule -> {
            schedules.remove(schedule);
            audit.record(operator, "schedule-remove", id, "removed with its position; its orders stay", "removed");
            return true;
        }).orElse(false);
    }
}
