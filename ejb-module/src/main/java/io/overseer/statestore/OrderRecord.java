package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Version;
import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * The columns of an order's task record ({@code order_state}: OrderID, LockedBy, CompleteBy, ProcessState,
 * FailureCount, what it waits for, its history's length), how they read, and the few moves that change
 * them — each of which refuses what the state machine does not allow ({@link ProcessState#leadsTo},
 * {@link StepState#move}) and says it in the history. {@link OrderState} builds the pattern's transitions
 * from these moves; nothing else changes the record.
 *
 * <p>A mapped superclass, not an embeddable, because these are the entity's own columns (its id and
 * {@code @Version} among them) and every move needs several of them; the split only lets the state
 * machine be read without its bookkeeping.
 */
@MappedSuperclass
public abstract class OrderRecord {

    @Id
    @Column(name = "order_id", length = 36)
    private String orderId;
    @Column(name = "workflow", nullable = false, length = 64)
    private String workflow;
    /** The definition's version the order runs under; null for orders stored before versions (V12). */
    @Column(name = "workflow_version", length = 16)
    private String workflowVersion;
    @Enumerated(EnumType.STRING)
    @Column(name = "process_state", nullable = false, length = 16)
    private ProcessState processState;
    /** A summary of its running attempts' claims (see {@link OrderState#summarize}); null when none runs. */
    @Embedded
    private Claim claim;
    /** What it waits for before a scheduler may claim it; null when nothing (see {@link #waitAs}). */
    @Embedded
    private Waiting waiting;
    @Column(name = "failure_count", nullable = false)
    private int failureCount;
    @Column(name = "epoch", nullable = false)
    private long epoch;
    @Column(name = "last_error", length = ReasonText.MAX_LENGTH)
    private String lastError;
    @Column(name = "created_at", nullable = false)
    private OffsetDateTime createdAt;
    @Column(name = "updated_at", nullable = false)
    private OffsetDateTime updatedAt;
    @Embedded
    private History history = new History();
    @Column(name = "notify_submitter", nullable = false)
    private boolean notifySubmitter;
    /** The submission span's W3C traceparent (see Tracing); null if the order is not traced. Set once. */
    @Column(name = "trace_parent", length = 55, updatable = false)
    private String traceParent;
    /**
     * A paused operation an operator let this record's next attempt of through (a bulk release, V19); null
     * when none. Cleared when that attempt starts.
     */
    @Column(name = "released_from", length = 64)
    private String releasedFrom;
    /**
     * The order carries business attributes (V21): when it settles, their rows get a copy of its listing
     * columns ({@link StateStore#saveHistory}). Set once, when the record is created; an order without
     * attributes costs nothing when it settles.
     */
    @Column(name = "has_attributes", nullable = false, updatable = false)
    private boolean hasAttributes;
    @Version
    @Column(name = "version", nullable = false)
    private long version;

    protected OrderRecord() {
        // for JPA
    }

    /** A new record, not yet in any state: its first move is to Pending. */
    OrderRecord(String orderId, String workflow, String workflowVersion, OffsetDateTime now) {
        this.orderId = Objects.requireNonNull(orderId, "an order has an id");
        this.workflow = Objects.requireNonNull(workflow, "an order runs a workflow");
        this.workflowVersion = workflowVersion;
        this.createdAt = now;
    }

    /** The order's trace: every span about it is a child of this W3C traceparent (null: not traced). */
    public String traceParent() {
        return traceParent;
    }

    /** Joins the order to the trace of the span that submits it; only before the record is first stored. */
    public void traceAs(String traceparent) {
        this.traceParent = traceparent;
    }

    /** The order carries business attributes; only before the record is first stored. */
    void carryAttributes() {
        hasAttributes = true;
    }

    /**
     * Whether the record has just settled and its attribute rows need their copy of its listing columns:
     * it carries attributes, and it is settled while it has moves of this transaction to store (a settled
     * record makes none, so these moved it there).
     */
    boolean settlesWithAttributes(boolean moved) {
        return hasAttributes && moved && processState.isSettled();
    }

    /** The submitter asked for status notifications (the order has a reply-to). */
    public void notifySubmitter() {
        notifySubmitter = true;
    }

    /** Moves the task to {@code to}, as {@link ProcessState#leadsTo} allows, and records it. */
    void moveTask(ProcessState to, OffsetDateTime now, Actor actor, String reason) {
        if (processState == null ? to != ProcessState.Pending : !processState.leadsTo(to)) {
            throw refusal("move to " + to);
        }
        history = history.add(orderId, null, now, actor, processState, to, reason);
        processState = to;
        updatedAt = now;
    }

    /** Records what happened to the task without a change of state (a wait, a pause, a limit). */
    void noteTask(OffsetDateTime now, Actor actor, String reason) {
        history = history.add(orderId, null, now, actor, processState, processState, reason);
    }

    /** Moves {@code step} to {@code to} from one of {@code from} ({@link StepState#move}) and records it. */
    void moveStep(StepState step, StepStatus to, OffsetDateTime now, Actor actor, String reason, StepStatus... from) {
        StepStatus old = step.move(to, now, from);
        history = history.add(orderId, step.name(), now, actor, old, to, reason);
        updatedAt = now;
    }

    /** Records what happened to a step without a change of its state (an attempt ended while undoing). */
    void noteStep(StepState step, OffsetDateTime now, Actor actor, String reason) {
        history = history.add(orderId, step.name(), now, actor, step.state(), step.state(), reason);
    }

    /** A step done (or timed out) ranks by its place in the history: undoing goes newest first. */
    void rank(StepState step) {
        step.rank(history.count());
    }

    /** Parks the waiting record (Pending, or Compensating with nobody on it) on a paused operation. */
    void park(String operation, OffsetDateTime now, Actor actor) {
        noteTask(now, actor, StageAdmission.parkedReason(operation));
        waitAs(waiting().park(operation));
        updatedAt = now;
    }

    /**
     * Operator: the record parked on a paused operation goes on, its next attempt of that operation let
     * through the pause (only that one: the pause holds the rest). The caller announces it.
     */
    void letThrough(OffsetDateTime now, Actor operator, String reason) {
        String operation = pausedOn();
        if (operation == null) {
            throw refusal("release (only an order parked on a paused operation)");
        }
        releasedFrom = operation;
        noteTask(now, operator, "let through the pause of " + operation + ": " + reason);
        waitAs(waiting().unpark());
        updatedAt = now;
    }

    /** The paused operation an operator let the record's next attempt of through; null if none. */
    String releasedFrom() {
        return releasedFrom;
    }

    /** An attempt of {@code operation} starts: a release from its pause is used up. */
    void attemptOf(String operation) {
        if (operation.equals(releasedFrom)) {
            releasedFrom = null;
        }
    }

    /**
     * The waiting record's next attempt is over its operation's flow limit: it waits until
     * {@code until} (the due-order poller claims it then, or a freed slot's announcement sooner). Said in
     * the history once, not each time a poll finds the limit still reached.
     */
    void throttle(String operation, OffsetDateTime until, OffsetDateTime now, Actor actor) {
        if (!operation.equals(throttledOn())) {
            noteTask(now, actor, StageAdmission.throttledReason(operation));
        }
        waitAs(waiting().throttle(operation, until));
        updatedAt = now;
    }

    /** The next attempt's epoch: every claim has its own, which its replies must name. */
    long nextEpoch(OffsetDateTime now) {
        updatedAt = now;
        return ++epoch;
    }

    /** Counts the failure of {@code step}'s expired attempt, which it ends. */
    void expire(StepState step) {
        step.unlock();
        step.countFailure(isCompensating());
        failureCount++;
    }

    void toError(String reason, OffsetDateTime now, Actor actor) {
        release();
        recordError(reason);
        moveTask(ProcessState.Error, now, actor, reason);
    }

    /** The only writer of lastError: a refusal's text comes from outside and must fit the column. */
    void recordError(String reason) {
        lastError = ReasonText.stored(reason);
    }

    /** Nothing runs any more (the caller unlocked the steps): the record's summary of them is cleared. */
    void release() {
        claim = null;
        waitAs(waiting().until(null));
    }

    /** The record's claim becomes {@code summary} (of its running attempts' claims; null when none runs). */
    void hold(Claim summary) {
        claim = summary;
    }

    /** The record's claim; {@link Claim#NONE} when nothing runs. */
    Claim held() {
        return Claim.of(claim);
    }

    /** What the record waits for; {@link Waiting#NONE} when nothing. */
    Waiting waiting() {
        return Waiting.of(waiting);
    }

    /** The record waits for {@code next} from now on. */
    void waitAs(Waiting next) {
        waiting = next.stored();
    }

    void touch(OffsetDateTime now) {
        updatedAt = now;
    }

    /** The refusal of {@code transition} in the record's present state. */
    IllegalTransitionException refusal(String transition) {
        return new IllegalTransitionException(orderId, processState, transition);
    }

    History history() {
        return history;
    }

    public boolean submitterNotified() {
        return notifySubmitter;
    }

    public boolean isCompensating() {
        return processState == ProcessState.Compensating;
    }

    public String orderId() {
        return orderId;
    }

    public String workflow() {
        return workflow;
    }

    public String workflowVersion() {
        return workflowVersion;
    }

    public ProcessState processState() {
        return processState;
    }

    public String lockedBy() {
        return held().lockedBy();
    }

    public OffsetDateTime completeBy() {
        return held().completeBy();
    }

    public OffsetDateTime notBefore() {
        return waiting().notBefore();
    }

    public OffsetDateTime heartbeatBy() {
        return held().heartbeatBy();
    }

    /** The operation this record waits for, parked while it is paused; null if it is not parked. */
    public String pausedOn() {
        return waiting().pausedOn();
    }

    /** The operation whose flow limit the order waits for; null if none holds it. */
    public String throttledOn() {
        return waiting().throttledOn();
    }

    public int failureCount() {
        return failureCount;
    }

    public long epoch() {
        return epoch;
    }

    public String lastError() {
        return lastError;
    }

    public OffsetDateTime createdAt() {
        return createdAt;
    }

    public OffsetDateTime updatedAt() {
        return updatedAt;
    }
}
