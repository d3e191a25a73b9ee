package io.overseer.recurring;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A schedule's row: its rules (read back as a {@link TickPlanner.Schedule}) and its position between plans.
 * {@link #plan} is the one transition: it applies the planner at "now" and moves the position on; the caller
 * submits the plan's ticks in the same transaction.
 */
@Entity
@Table(name = "schedule")
public class ScheduleRecord {

    private static final Duration BUFFER_RECHECK = Duration.ofSeconds(1);
    /** An order of a schedule is unfinished while it waits or runs; Error waits for an operator, not for the schedule. */
    static final java.util.Set<String> UNFINISHED = java.util.Set.of("Pending", "Processing", "Compensating");

    @Id
    @Column(name = "schedule_id")
    private String scheduleId;
    private String workflow;
    @Column(name = "order_body")
    private String orderBody;
    private String cron;
    @Column(name = "every_ms")
    private Long everyMs;
    private String zone;
    @Column(name = "starts_at")
    private OffsetDateTime startsAt;
    @Column(name = "ends_at")
    private OffsetDateTime endsAt;
    private String missed;
    @Column(name = "catch_up_window_ms")
    private Long catchUpWindowMs;
    @Column(name = "catch_up_max")
    private Integer catchUpMax;
    private String overlap;
    @Column(name = "dst_repeated")
    private String dstRepeated;
    @Column(name = "dst_missing")
    private String dstMissing;
    @Column(name = "jitter_ms")
    private long jitterMs;
    @Column(name = "next_due")
    private OffsetDateTime nextDue;
    @Column(name = "fire_at")
    private OffsetDateTime fireAt;
    private OffsetDateTime buffered;
    @Column(name = "last_tick")
    private OffsetDateTime lastTick;
    @Column(name = "last_order_id")
    private String lastOrderId;
    @Column(name = "fired_count")
    private long firedCount;
    @Column(name = "missed_count")
    private long missedCount;
    @Column(name = "overlapped_count")
    private long overlappedCount;
    @Column(name = "paused_reason")
    private String pausedReason;
    @Column(name = "pause_after_failures")
    private Integer pauseAfterFailures;
    @Column(name = "failures_in_row")
    private int failuresInRow;
    @Column(name = "judged_order_id")
    private String judgedOrderId;
    @Column(name = "created_at")
    private OffsetDateTime createdAt;
    @Column(name = "updated_at")
    private OffsetDateTime updatedAt;
    @Version
    private long version;
    /** The rules, read from their columns once: they never change after creation, and a cron is parsed to read them. */
    @Transient
    private ScheduleRules rules;

    protected ScheduleRecord() {
    }

    /**
     * A new schedule, its first tick the first after {@code now} (or its start); paused once
     * {@code pauseAfterFailures} of its orders in a row have ended in Error (null: never).
     */
    public ScheduleRecord(ScheduleRules rules, String workflow, String orderBody, Integer pauseAfterFailures, Instant now) {
        this.pauseAfterFailures = pauseAfterFailures;
        this.scheduleId = rules.id();
        this.workflow = workflow;
        this.orderBody = orderBody;
        rules.writeTo(this);
        this.rules = rules;
        this.createdAt = at(now);
        this.updatedAt = createdAt;
        moveTo(rules.schedule().recurrence().next(now.minusNanos(1)).orElse(null), null, now);
    }

    /**
     * Plans at {@code now} and moves the position on: the ticks to submit an order for, in order.
     * {@code lastOrderState}: the process state of the order the last fired tick submitted (null if none, or
     * removed). When ticks are due, that order is judged once: one more in Error than the schedule allows in a row
     * pauses it instead, its position left where it was (on resume, its missed-tick policy judges the ticks).
     */
    public List<Instant> plan(Instant now, Duration onTime, String lastOrderState) {
        TickPlanner.Schedule schedule = rules().schedule();
        boolean previousUnfinished = lastOrderState != null && UNFINISHED.contains(lastOrderState);
        TickPlanner.Plan plan = TickPlanner.plan(schedule,
                new TickPlanner.Position(instant(nextDue), instant(buffered), previousUnfinished), now, onTime);
        if (!plan.fire().isEmpty() && failedTooOften(lastOrderState, now)) {
            return List.of();
        }
        missedCount += plan.missed();
        overlappedCount += plan.overlapped();
        firedCount += plan.fire().size();
        if (!plan.fire().isEmpty()) {
            lastTick = at(plan.fire().get(plan.fire().size() - 1));
        }
        moveTo(plan.nextDue(), plan.buffered(), now);
        updatedAt = at(now);
        return plan.fire();
    }

    /** Judges the last order once, when it has ended: Error adds to the streak, any other end clears it. */
    private boolean failedTooOften(String lastOrderState, Instant now) {
        if (lastOrderId == null || lastOrderId.equals(judgedOrderId) || lastOrderState == null
                || UNFINISHED.contains(lastOrderState)) {
            return false;
        }
        judgedOrderId = lastOrderId;
        failuresInRow = "Error".equals(lastOrderState) ? failuresInRow + 1 : 0;
        if (pauseAfterFailures == null || failuresInRow < pauseAfterFailures) {
            return false;
        }
        pause("its last " + failuresInRow + " orders ended in Error (the last: " + lastOrderId + ")", now);
        return true;
    }

    /** The order the last fired tick submitted, for the overlap policy and the operators. */
    public void fired(String orderId) {
        this.lastOrderId = orderId;
    }

    /** Paused with a reason that says why: no tick fires until it is resumed (the ticks meanwhile are missed). */
    public void pause(String reason, Instant now) {
        this.pausedReason = reason;
        this.updatedAt = at(now);
    }

    /**
     * A buffered tick is looked at again a second later, until the order before it has finished: its fire
     * time moves on with each look, so that the ticks due meanwhile are polled before it, not behind it.
     */
    private void moveTo(Instant next, Instant keep, Instant now) {
        this.nextDue = at(next);
        this.buffered = at(keep);
        this.fireAt = keep != null ? at(now.plus(BUFFER_RECHECK))
                : next == null ? null : at(rules().schedule().jitter().fireAt(scheduleId, next));
    }

    public ScheduleRules rules() {
        if (rules == null) {
            rules = ScheduleRules.readFrom(this);
        }
        return rules;
    }

    public String scheduleId() {
        return scheduleId;
    }

    public String workflow() {
        return workflow;
    }

    public String orderBody() {
        return orderBody;
    }

    public Instant nextDue() {
        return instant(nextDue);
    }

    public Instant lastTick() {
        return instant(lastTick);
    }

    /** Resumed: the ticks that came due while it was paused are judged by its missed-tick policy at the next poll. */
    public void resume(Instant now) {
        this.pausedReason = null;
        this.failuresInRow = 0;
        this.updatedAt = at(now);
    }

    public String lastOrderId() {
        return lastOrderId;
    }

    public long firedCount() {
        return firedCount;
    }

    public long missedCount() {
        return missedCount;
    }

    public long overlappedCount() {
        return overlappedCount;
    }

    public String pausedReason() {
        return pausedReason;
    }

    public Integer pauseAfterFailures() {
        return pauseAfterFailures;
    }

    public int failuresInRow() {
        return failuresInRow;
    }

    // the rules' columns, read and written only by ScheduleRules
    String cron() { return cron; }
    Long everyMs() { return everyMs; }
    String zone() { return zone; }
    OffsetDateTime startsAt() { return startsAt; }
    OffsetDateTime endsAt() { return endsAt; }
    String missed() { return missed; }
    Long catchUpWindowMs() { return catchUpWindowMs; }
    Integer catchUpMax() { return catchUpMax; }
    String overlap() { return overlap; }
    String dstRepeated() { return dstRepeated; }
    String dstMissing() { return dstMissing; }
    long jitterMs() { return jitterMs; }

    void rules(String cron, Long everyMs, String zone, OffsetDateTime startsAt, OffsetDateTime endsAt, String missed,
               Long catchUpWindowMs, Integer catchUpMax, String overlap, String dstRepeated, String dstMissing, long jitterMs) {
        this.cron = cron;
        this.everyMs = everyMs;
        this.zone = zone;
        this.startsAt = startsAt;
        this.endsAt = endsAt;
        this.missed = missed;
        this.catchUpWindowMs = catchUpWindowMs;
        this.catchUpMax = catchUpMax;
        this.overlap = overlap;
        this.dstRepeated = dstRepeated;
        this.dstMissing = dstMissing;
        this.jitterMs = jitterMs;
    }

    private static OffsetDateTime at(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }
}
