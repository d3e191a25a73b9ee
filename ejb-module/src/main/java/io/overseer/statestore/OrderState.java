package io.overseer.statestore;

import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The task-level state record of the pattern (OrderID, LockedBy, CompleteBy, ProcessState,
 * FailureCount) and the owner of its steps' records.
 *
 * <p>Forward: {@code Pending --claim--> Processing}; each completed step starts the next in place;
 * the last one makes it {@code Processed}. The steps of a parallel group start together, each with its
 * own attempt (epoch, token, complete-by, heartbeat, retries) on its step record, and the step after the
 * group starts when the last of them completes; the record's LockedBy and CompleteBy then summarize the
 * running branches. A step that fails for good either stops the task in
 * {@code Error} or starts {@code Compensating}: the steps done (and those that timed out, whose effect
 * is unknown) are undone newest first, each by its compensating operation, ending in
 * {@code Compensated} — or in {@code Error} if a compensation fails for good. An expired attempt is
 * retried (Pending again, or an unlocked Compensating record) until its step's retries are spent.
 *
 * <p>Every claim increments {@code epoch}; replies name the epoch they answer, and any other epoch is a
 * stale reply of an abandoned attempt. Every transition is added to the history. Callers hold the
 * row's pessimistic lock (see {@link StateStore}).
 *
 * <p>An attempt whose operation an operator has paused ({@link PausedDispatch}) is not started: the
 * record is parked instead — Pending, or Compensating with nobody on it, with {@code pausedOn} naming
 * the operation — holding no complete-by, so no wait of it ever counts as a failure. Resuming clears
 * {@code pausedOn} ({@link StateStore#unpark}) and the record is claimed again.
 *
 * <p>Why one class this long: it is the pattern's state machine, and its rules depend on each other (a
 * cancel builds on resubmit, a give-up on the abandoning of running branches, a claim on the pauses and
 * flow limits), so they are read and tested together ({@code OrderStateTest}). What is not a rule lives
 * beside it: the claim ({@link Claim}, shared with the steps), the step lookups ({@link StepRecords}), the
 * allowed task moves ({@link ProcessState#leadsTo}) and step moves ({@link StepState#move}).
 */
@Entity
@Table(name = "order_state")
public class OrderState {

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
    /** A summary of its running attempts' claims (see {@link #summarize}); null when none runs. */
    @Embedded
    private Claim claim;
    @Column(name = "not_before")
    private OffsetDateTime notBefore;
    /** The operation whose flow limit this waiting record waits for; null when none holds it. */
    @Column(name = "throttled_on", length = 64)
    private String throttledOn;
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
    @Column(name = "history_count", nullable = false)
    private int historyCount;
    @Column(name = "notify_submitter", nullable = false)
    private boolean notifySubmitter;
    /** The operation this record waits for while an operator has paused it; null when not parked. */
    @Column(name = "paused_on", length = 64)
    private String pausedOn;
    @Version
    @Column(name = "version", nullable = false)
    private long version;
    @OneToMany(mappedBy = "task", cascade = CascadeType.ALL, fetch = FetchType.EAGER)
    @OrderBy("seq ASC")
    private List<StepState> steps = new ArrayList<>();
    @Transient
    private List<HistoryEntry> history = new ArrayList<>();

    protected OrderState() {
        // for JPA
    }


    /** The record as the submission creates it: Pending, not locked, no failures, every step NotStarted. */
    public static OrderState pending(String orderId, String workflow, List<String> stepNames, OffsetDateTime now,
                                     Actor actor) {
        return pending(orderId, workflow, null, stepNames, now, actor, null);
    }

    /**
     * A new order of {@code definition}, which it runs under to the end (its version is recorded), not
     * claimable before {@code notBefore} if that is set (a delayed start).
     */
    public static OrderState pending(String orderId, WorkflowDefinition definition, OffsetDateTime now, Actor actor,
                                     OffsetDateTime notBefore) {
        return pending(orderId, definition.name(), definition.version(), definition.stepNames(), now, actor, notBefore);
    }

    private static OrderState pending(String orderId, String workflow, String version, List<String> stepNames,
                                      OffsetDateTime now, Actor actor, OffsetDateTime notBefore) {
        if (stepNames.isEmpty()) {
            throw new IllegalArgumentException("A workflow needs at least one step");
        }
        OrderState state = new OrderState();
        state.orderId = orderId;
        state.workflow = workflow;
        state.createdAt = now;
        for (int seq = 0; seq < stepNames.size(); seq++) {
            state.steps.add(new StepState(state, seq, stepNames.get(seq), now));
        }
        state.workflowVersion = version;
        state.notBefore = notBefore;
        state.moveTask(ProcessState.Pending, now, actor, "submitted" + (version == null ? "" : " (" + workflow + "@" + version + ")")
                + (notBefore == null ? "" : "; starts at " + notBefore));
        return state;
    }

    /** The submitter asked for status notifications (the order has a reply-to). */
    public void notifySubmitter() {
        notifySubmitter = true;
    }

    public boolean submitterNotified() {
        return notifySubmitter;
    }

    /**
     * Whether a scheduler may claim this record now: Pending, or Compensating with nobody on it, or
     * Processing with a branch of its parallel group waiting to start (a retry's backoff, a hand-back, a
     * flow limit: then a not-before says when) — and not parked, and not before its not-before.
     */
    public boolean isClaimable(OffsetDateTime now) {
        boolean waiting = processState == ProcessState.Pending
                || (processState == ProcessState.Compensating && !held().isHeld())
                || (processState == ProcessState.Processing && notBefore != null);
        return waiting && pausedOn == null && (notBefore == null || !notBefore.isAfter(now));
    }

    /** A scheduler instance takes the task exclusively and starts its next step, or next compensation. */
    public List<Attempt> claim(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor) {
        return claim(owner, now, definition, actor, "claimed");
    }

    /** As {@link #claim(String, OffsetDateTime, WorkflowDefinition, Actor)}, saying in the history why. */
    public List<Attempt> claim(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor, String reason) {
        return claim(owner, now, definition, actor, reason, PausedDispatch.NONE);
    }

    /**
     * A scheduler claims the record and starts its next attempts — the next step, or every waiting step of
     * its parallel group — except those whose operation is paused (the record parks on it, see the class
     * comment) or over its flow limit (they wait, the record says until when). Returns what started.
     */
    public List<Attempt> claim(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                               String reason, PausedDispatch paused) {
        if (!isClaimable(now)) {
            throw new IllegalTransitionException(orderId, processState + " locked by " + lockedBy()
                    + (pausedOn == null ? "" : ", parked on " + pausedOn), "claim");
        }
        if (processState == ProcessState.Compensating) {
            return startCompensation(owner, now, definition, actor, paused).stream().toList();
        }
        return startStage(owner, now, definition, actor, paused, reason);
    }

    /** The operation this record waits for, parked while it is paused; null if it is not parked. */
    public String pausedOn() {
        return pausedOn;
    }

    /** Whether a reply naming this epoch and step answers an attempt now running. */
    public boolean isCurrent(long replyEpoch, int stepSeq) {
        return held().isHeld() && records().attempt(replyEpoch, stepSeq, epoch).isPresent();
    }

    /**
     * Whether {@code token} is the fencing token of the running attempt at step {@code stepSeq}. A reply
     * that names a running attempt's epoch and step with another token was not written by an agent that
     * saw the request: it is forged.
     */
    public boolean holdsToken(int stepSeq, String token) {
        // An attempt started before tokens existed (claimed by a version before V7) has none: its epoch
        // alone fences it, as it did then.
        return records().lockedAt(stepSeq)
                .map(step -> step.fenceToken() == null || FenceToken.matches(step.fenceToken(), token))
                .orElse(false);
    }

    /**
     * The running attempt succeeded. Returns the attempts that start now, held by {@code owner}: the
     * instance applying the reply — after a failover not the one that claimed, which may be dead, and
     * LockedBy and the history name who actually holds the task. A branch of a parallel group whose
     * siblings still run starts nothing: the last one to complete starts the next step.
     */
    public List<Attempt> succeed(String owner, long replyEpoch, int stepSeq, OffsetDateTime now,
                                 WorkflowDefinition definition, Actor agent) {
        return succeed(owner, replyEpoch, stepSeq, now, definition, agent, PausedDispatch.NONE);
    }

    /** As {@link #succeed(String, long, int, OffsetDateTime, WorkflowDefinition, Actor)}; a paused next attempt parks. */
    public List<Attempt> succeed(String owner, long replyEpoch, int stepSeq, OffsetDateTime now,
                                 WorkflowDefinition definition, Actor agent, PausedDispatch paused) {
        StepState step = requireCurrent(replyEpoch, stepSeq, "record success");
        step.unlock();
        if (processState == ProcessState.Compensating) {
            moveStep(step, StepStatus.Compensated, now, agent, "compensation applied", StepStatus.Compensating);
            return continueCompensation(owner, now, definition, paused).stream().toList();
        }
        moveStep(step, StepStatus.Completed, now, agent, "applied", StepStatus.Running);
        step.rank(historyCount);
        return advance(owner, now, definition, agent, paused);
    }

    /**
     * After a step completed: the order is Processed; or, while branches of its group still run, it waits
     * for them; or its next step (or group) starts, parks on a pause, or waits for a flow limit or for a
     * branch's retry.
     */
    private List<Attempt> advance(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                                  PausedDispatch paused) {
        if (records().allCompleted()) {
            release();
            moveTask(ProcessState.Processed, now, actor, "every step completed");
            return List.of();
        }
        if (!records().locked().isEmpty()) {
            summarize();
            return List.of();
        }
        Actor scheduler = Actor.of(Actor.Kind.scheduler, owner);
        if (notBefore != null && notBefore.isAfter(now)) { // a branch waits for its retry, or for a flow limit
            OffsetDateTime due = notBefore;
            release();
            notBefore = due;
            moveTask(ProcessState.Pending, now, scheduler, "waits: a branch starts again at " + due);
            return List.of();
        }
        return startStage(owner, now, definition, scheduler, paused, null);
    }

    /** Whether the order's running step waits for {@code event}. */
    public boolean awaits(String event, WorkflowDefinition definition) {
        return processState == ProcessState.Processing && waitFor(event, definition).isPresent();
    }

    private Optional<StepState> waitFor(String event, WorkflowDefinition definition) {
        return records().locked().stream().filter(step -> event.equals(definition.step(step.name()).event())).findFirst();
    }

    /** Whether {@code event} was received already (a step that waited for it completed with it). */
    public boolean received(String event, WorkflowDefinition definition) {
        return steps.stream().anyMatch(step -> step.eventPayload() != null
                && event.equals(definition.step(step.name()).event()));
    }

    /**
     * An external event the running step waits for has arrived: the step completes, its body kept with it
     * for the agents of the steps that follow, and the order moves on as after a completed call. Returns
     * the next attempts, held by {@code owner}, the instance that took the event.
     *
     * @throws IllegalTransitionException the order is not waiting for this event now
     */
    public List<Attempt> receive(String event, String payload, String owner, OffsetDateTime now,
                                 WorkflowDefinition definition, Actor sender, PausedDispatch paused) {
        if (!awaits(event, definition)) {
            throw new IllegalTransitionException(orderId, processState + (held().isHeld() ? ", running "
                    + records().locked().stream().map(StepState::name).toList() : ""), "receive event '" + event + "' (not waiting for it)");
        }
        StepState step = waitFor(event, definition).orElseThrow();
        step.unlock();
        step.receive(payload);
        moveStep(step, StepStatus.Completed, now, sender, "event " + event + " received", StepStatus.Running);
        step.rank(historyCount);
        return advance(owner, now, definition, sender, paused);
    }

    /**
     * The running attempt was refused for good (a nontransient fault). The other branches of its group, if
     * any still run, are abandoned: their late replies will be stale, and their outcome being unknown, they
     * are undone with the completed steps. Returns a compensation to start, if any, held by {@code owner},
     * the instance applying the reply (see {@link #succeed}).
     */
    public List<Attempt> fail(String owner, long replyEpoch, int stepSeq, String reason, OffsetDateTime now,
                              WorkflowDefinition definition, Actor agent) {
        return fail(owner, replyEpoch, stepSeq, reason, now, definition, agent, PausedDispatch.NONE);
    }

    /** As {@link #fail(String, long, int, String, OffsetDateTime, WorkflowDefinition, Actor)}; a paused compensation parks. */
    public List<Attempt> fail(String owner, long replyEpoch, int stepSeq, String reason, OffsetDateTime now,
                              WorkflowDefinition definition, Actor agent, PausedDispatch paused) {
        StepState step = requireCurrent(replyEpoch, stepSeq, "record failure");
        step.unlock();
        if (processState == ProcessState.Compensating) {
            moveStep(step, StepStatus.CompensationFailed, now, agent, reason, StepStatus.Compensating);
            toError("compensation of " + step.name() + " failed: " + reason, now, agent);
            return List.of();
        }
        moveStep(step, StepStatus.Failed, now, agent, reason, StepStatus.Running);
        OffsetDateTime abandonedUntil = abandonInFlight(now, agent, "abandoned: " + step.name() + " failed", definition);
        return giveUp(definition.step(step.name()), step.name() + " failed: " + reason, owner, now, definition, agent,
                paused, abandonedUntil).stream().toList();
    }

    /**
     * The agent handed the attempt back without calling the remote service (its instance is shutting
     * down): the step waits for a scheduler again at once, and no failure is counted — nothing was tried.
     */
    public void handBack(long replyEpoch, int stepSeq, String reason, OffsetDateTime now, Actor agent) {
        StepState step = requireCurrent(replyEpoch, stepSeq, "hand back");
        step.unlock();
        if (isCompensating()) {
            release();
            noteStep(step, now, agent, reason);
        } else if (!records().locked().isEmpty()) { // its siblings run on; it starts again at the next claim
            moveStep(step, StepStatus.NotStarted, now, agent, reason, StepStatus.Running);
            notBefore = earliest(notBefore, now);
            pausedOn = null; // another branch's pause must not hold this one: the next claim checks pauses again
            summarize();
        } else {
            release();
            moveStep(step, StepStatus.NotStarted, now, agent, reason, StepStatus.Running);
            moveTask(ProcessState.Pending, now, agent, reason);
        }
        updatedAt = now;
    }

    /** Whether the complete-by time of a running attempt has passed, or its heartbeat was missed. */
    public boolean isExpired(OffsetDateTime now) {
        return held().isHeld() && !records().expired(now).isEmpty();
    }

    /** The names of the steps whose running attempt has expired (a parallel group may have several). */
    public List<String> expiredSteps(OffsetDateTime now) {
        return records().expired(now).stream().map(StepState::name).toList();
    }

    public boolean isCompensating() {
        return processState == ProcessState.Compensating;
    }

    /** The first expired step's failure count (of the kind of attempt running) once its expiry is counted. */
    public int failuresIncludingExpiry() {
        return failuresIncludingExpiry(records().locked().get(0).name());
    }

    /** The running step's failure count (of the kind of attempt running) once the current expiry is counted. */
    public int failuresIncludingExpiry(String stepName) {
        StepState step = running(stepName);
        return (isCompensating() ? step.compensationFailures() : step.failureCount()) + 1;
    }

    /** As {@link #retryAfterExpiry(String, OffsetDateTime, OffsetDateTime, Actor)} for the one expired step. */
    public void retryAfterExpiry(OffsetDateTime now, OffsetDateTime retryAt, Actor actor) {
        retryAfterExpiry(expiredSteps(now).get(0), now, retryAt, actor);
    }

    /**
     * Supervisor: the step's attempt expired and is tried again, not before {@code retryAt}. A branch whose
     * siblings still run waits alone: the order keeps running, and a claim at {@code retryAt} starts the
     * branch again. A waiting record has no deadline: the claim that starts the step again gives it one.
     */
    public void retryAfterExpiry(String stepName, OffsetDateTime now, OffsetDateTime retryAt, Actor actor) {
        StepState step = running(stepName);
        String cause = step.claim().expiryCause(now);
        expire(step);
        String reason = cause + " (failure " + failureCount + "); retry";
        recordError(cause + " (failure " + failureCount + ")");
        if (isCompensating()) {
            release();
            noteStep(step, now, actor, reason);
        } else if (!records().locked().isEmpty()) {
            moveStep(step, StepStatus.NotStarted, now, actor, reason, StepStatus.Running);
            step.dueAt(retryAt); // its own backoff: a claim for another branch does not start it earlier
            notBefore = earliest(notBefore, retryAt);
            pausedOn = null; // another branch's pause must not hold this one: the next claim checks pauses again
            summarize();
            return;
        } else {
            OffsetDateTime due = earliest(notBefore, retryAt); // another branch may wait already
            release();
            moveStep(step, StepStatus.NotStarted, now, actor, reason, StepStatus.Running);
            step.dueAt(retryAt);
            moveTask(ProcessState.Pending, now, actor, reason);
            pausedOn = null;
            retryAt = due;
        }
        notBefore = retryAt.isAfter(now) ? retryAt : null;
    }

    /** As {@link #giveUpAfterExpiry(String, OffsetDateTime, WorkflowDefinition, Actor)} for the one expired step. */
    public boolean giveUpAfterExpiry(OffsetDateTime now, WorkflowDefinition definition, Actor actor) {
        return giveUpAfterExpiry(expiredSteps(now).get(0), now, definition, actor);
    }

    /**
     * Supervisor: the step's attempt expired once too often. Its running siblings, if any, are abandoned
     * (see {@link #fail}). Returns whether a compensation awaits a scheduler.
     */
    public boolean giveUpAfterExpiry(String stepName, OffsetDateTime now, WorkflowDefinition definition, Actor actor) {
        StepState step = running(stepName);
        String cause = step.claim().expiryCause(now);
        expire(step);
        String reason = step.name() + ": " + cause + " (" + failureCount + " expiries)";
        if (isCompensating()) {
            moveStep(step, StepStatus.CompensationFailed, now, actor, reason, StepStatus.Compensating);
            toError("compensation of " + reason, now, actor);
            return false;
        }
        moveStep(step, StepStatus.TimedOut, now, actor, reason, StepStatus.Running);
        step.rank(historyCount);
        OffsetDateTime abandonedUntil = abandonInFlight(now, actor, "abandoned: " + step.name() + " gave up", definition);
        giveUp(definition.step(step.name()), reason, null, now, definition, actor, PausedDispatch.NONE, abandonedUntil);
        return processState == ProcessState.Compensating;
    }

    /**
     * Operator: an order in Error is run again from where it stopped — the failed steps (forward: the step,
     * or the branches of its group that did not complete), or the failed compensation — with their failure
     * counts cleared. It waits for a scheduler.
     */
    public void resubmit(OffsetDateTime now, Actor operator, String reason) {
        if (processState != ProcessState.Error) {
            throw new IllegalTransitionException(orderId, processState, "resubmit (only an order in Error)");
        }
        Optional<StepState> compensation = records().firstIn(StepStatus.CompensationFailed);
        if (compensation.isPresent()) {
            compensation.get().clearFailures();
            moveStep(compensation.get(), StepStatus.Compensating, now, operator, reason, StepStatus.CompensationFailed);
            moveTask(ProcessState.Compensating, now, operator, reason);
        } else {
            List<StepState> failed = records().allIn(StepStatus.Failed, StepStatus.TimedOut);
            if (failed.isEmpty()) {
                throw new IllegalTransitionException(orderId, processState, "find the failed step");
            }
            for (StepState step : failed) {
                step.clearFailures();
                step.dueAt(null);
                moveStep(step, StepStatus.NotStarted, now, operator, reason, StepStatus.Failed, StepStatus.TimedOut);
            }
            moveTask(ProcessState.Pending, now, operator, reason);
        }
        recordError(null);
        notBefore = notBefore != null && notBefore.isAfter(now) ? notBefore : null; // an abandoned branch's call may still run
    }

    /**
     * Operator: the order is abandoned and what it did is undone. Steps in flight are abandoned too (their
     * late replies will be stale) and, their outcome unknown, undone with the others. Returns whether a
     * compensation awaits a scheduler.
     */
    public boolean cancel(OffsetDateTime now, WorkflowDefinition definition, Actor operator, String reason) {
        if (processState == ProcessState.Error && records().firstIn(StepStatus.CompensationFailed).isPresent()) {
            resubmit(now, operator, reason);
            return true;
        }
        if (processState != ProcessState.Pending && processState != ProcessState.Processing
                && processState != ProcessState.Error) {
            throw new IllegalTransitionException(orderId, processState, "cancel");
        }
        OffsetDateTime kept = processState == ProcessState.Error && notBefore != null && notBefore.isAfter(now) ? notBefore : null;
        OffsetDateTime abandonedUntil = latest(kept, abandonInFlight(now, operator, "abandoned: " + reason, definition));
        release();
        pausedOn = null; // it no longer waits for its forward step; its compensations may park again
        throttledOn = null;
        notBefore = abandonedUntil;
        recordError("cancelled: " + reason);
        moveTask(ProcessState.Compensating, now, operator, reason);
        finishIfNothingToUndo(now, definition, operator);
        return processState == ProcessState.Compensating;
    }

    /** Entries for the transitions made since the last call, to be stored with the record. */
    public List<HistoryEntry> drainHistory() {
        List<HistoryEntry> drained = List.copyOf(history);
        history.clear();
        return drained;
    }

    /**
     * A step was given up: the order stops in Error, or starts undoing. Abandoned branches may still be
     * called by their agents until {@code abandonedUntil}; undoing before then could be overtaken by such a
     * late call (agents never call past the complete-by), so the compensation waits for it.
     */
    private Optional<Attempt> giveUp(StepDefinition step, String reason, String owner, OffsetDateTime now,
                                     WorkflowDefinition definition, Actor actor, PausedDispatch paused,
                                     OffsetDateTime abandonedUntil) {
        release();
        pausedOn = null; // a held branch's pause or limit no longer holds anything: it is not started any more
        throttledOn = null;
        if (step.onExhausted() == StepDefinition.OnExhausted.ERROR) {
            toError(reason, now, actor);
            // Kept in Error (which no poller claims): a cancel's undo, or a resubmitted attempt, must not
            // start before an abandoned branch's agent stops calling.
            notBefore = abandonedUntil;
            return Optional.empty();
        }
        recordError(reason);
        moveTask(ProcessState.Compensating, now, actor, reason);
        notBefore = abandonedUntil;
        return owner == null || notBefore != null ? finishIfNothingToUndo(now, definition, actor)
                : continueCompensation(owner, now, definition, paused);
    }

    /**
     * Abandons what is in flight: running attempts (their late replies will be stale) and steps reset after
     * expired attempts (one of which may have been applied) become TimedOut, to be undone with the completed
     * steps. Returns until when an abandoned call may still be made (the latest complete-by of the calls
     * abandoned), or null if none can: a wait for an event has no agent that could still be calling.
     */
    private OffsetDateTime abandonInFlight(OffsetDateTime now, Actor actor, String reason, WorkflowDefinition definition) {
        OffsetDateTime until = null;
        for (StepState step : records().inOrder()) {
            if (step.isLocked()) {
                if (!definition.step(step.name()).awaitsEvent() && step.completeBy() != null && step.completeBy().isAfter(now)
                        && (until == null || step.completeBy().isAfter(until))) {
                    until = step.completeBy();
                }
                step.unlock();
                moveStep(step, StepStatus.TimedOut, now, actor, reason, StepStatus.Running);
                step.rank(historyCount);
            } else if (step.state() == StepStatus.NotStarted && step.attempts() > 0) {
                moveStep(step, StepStatus.TimedOut, now, actor, "earlier attempts expired; outcome unknown",
                        StepStatus.NotStarted);
                step.rank(historyCount);
            }
        }
        return until;
    }

    private Optional<Attempt> continueCompensation(String owner, OffsetDateTime now, WorkflowDefinition definition,
                                                   PausedDispatch paused) {
        Optional<Attempt> next = finishIfNothingToUndo(now, definition, Actor.of(Actor.Kind.scheduler, owner));
        return processState == ProcessState.Compensating
                ? startCompensation(owner, now, definition, Actor.of(Actor.Kind.scheduler, owner), paused)
                : next;
    }

    private Optional<Attempt> finishIfNothingToUndo(OffsetDateTime now, WorkflowDefinition definition, Actor actor) {
        if (records().nextToCompensate(definition).isEmpty()) {
            release();
            moveTask(ProcessState.Compensated, now, actor, "every completed step undone");
        }
        return Optional.empty();
    }

    /**
     * The steps of the current stage not started yet: the first step not completed, or every waiting
     * branch of its parallel group.
     */
    private List<StepState> waitingInStage(WorkflowDefinition definition) {
        StepRecords records = records();
        StepState first = records.inOrder().stream().filter(s -> s.state() != StepStatus.Completed).findFirst()
                .orElseThrow(() -> new IllegalTransitionException(orderId, processState, "start a step (none left)"));
        List<String> stage = definition.stage(first.name());
        List<StepState> waiting = records.allIn(StepStatus.NotStarted).stream().filter(s -> stage.contains(s.name())).toList();
        if (waiting.isEmpty()) {
            throw new IllegalTransitionException(orderId, processState, "start a step (none waiting in " + stage + ")");
        }
        return waiting;
    }

    /**
     * Starts the waiting steps of the current stage (see {@link #waitingInStage}). A step whose operation is
     * paused, or over its flow limit, does not start. If nothing runs then, the record waits as a whole:
     * Pending, parked on the pause or with the limit's not-before. If other branches run, the order keeps
     * running and stays claimable for the held ones (a not-before, and the pause's parking if one holds).
     * {@code claimReason}: the claim of a Pending record that this is, said in its move to Processing.
     */
    private List<Attempt> startStage(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                                     PausedDispatch paused, String claimReason) {
        String parkedOn = null;
        String limitedOn = null;
        OffsetDateTime limitedUntil = null;
        List<StepState> admitted = new ArrayList<>();
        List<StepState> waiting = waitingInStage(definition);
        String wasParkedOn = pausedOn;
        String wasLimitedOn = throttledOn;
        for (StepState step : waiting) { // every pause first: an admission takes a slot of its limit
            String operation = definition.step(step.name()).operation();
            if (operation != null && paused.holds(operation)) { // a wait for an event calls nothing: never paused
                parkedOn = parkedOn == null ? operation : parkedOn;
            }
        }
        OffsetDateTime notDueUntil = null;
        for (StepState step : waiting) {
            String operation = definition.step(step.name()).operation();
            if (operation != null && paused.holds(operation)) {
                continue;
            }
            if (step.dueAt() != null && step.dueAt().isAfter(now)) { // its own retry's backoff is not over
                notDueUntil = earliest(notDueUntil, step.dueAt());
                continue;
            }
            OffsetDateTime until = paused.admit(operation, now);
            if (until == null) {
                admitted.add(step);
            } else if (limitedUntil == null || until.isBefore(limitedUntil)) {
                limitedUntil = until;
                limitedOn = operation;
            }
        }
        boolean nothingRuns = records().locked().isEmpty();
        if (admitted.isEmpty() && nothingRuns && parkedOn == null && limitedOn == null) {
            // only branches whose backoff is not over: the record waits for the first of them
            if (processState == ProcessState.Processing) {
                release();
                moveTask(ProcessState.Pending, now, actor, "waits: a branch starts again at " + notDueUntil);
            }
            notBefore = notDueUntil;
            return List.of();
        }
        if (admitted.isEmpty() && nothingRuns) {
            if (processState == ProcessState.Processing) { // the last branch that ran has just ended
                release();
                moveTask(ProcessState.Pending, now, actor, parkedOn != null ? parkedReason(parkedOn) : throttledReason(limitedOn));
                if (parkedOn != null) {
                    pausedOn = parkedOn;
                } else {
                    throttledOn = limitedOn;
                    notBefore = limitedUntil;
                }
            } else if (parkedOn != null) {
                park(parkedOn, now, actor);
            } else {
                throttle(limitedOn, limitedUntil, now, actor);
            }
            return List.of();
        }
        if (processState == ProcessState.Pending) {
            moveTask(ProcessState.Processing, now, actor, claimReason);
        }
        List<Attempt> attempts = new ArrayList<>();
        for (StepState step : admitted) {
            StepDefinition spec = definition.step(step.name());
            moveStep(step, StepStatus.Running, now, actor, spec.awaitsEvent() ? "waits for event " + spec.event() : "started",
                    StepStatus.NotStarted);
            attempts.add(lockAttempt(step, spec, false, owner, now, definition, paused));
        }
        if (parkedOn != null || limitedOn != null) { // a branch is held while others run
            String held = parkedOn != null ? parkedReason(parkedOn) : throttledReason(limitedOn);
            if (!java.util.Objects.equals(parkedOn, wasParkedOn) || !java.util.Objects.equals(limitedOn, wasLimitedOn)) {
                noteTask(now, actor, held);
            }
            pausedOn = parkedOn;
            throttledOn = limitedOn;
            notBefore = limitedUntil != null ? limitedUntil : now;
        }
        if (notDueUntil != null) { // a branch's backoff is not over: the record is claimed again for it then
            notBefore = earliest(notBefore, notDueUntil);
        }
        return attempts;
    }

    private Optional<Attempt> startCompensation(String owner, OffsetDateTime now, WorkflowDefinition definition,
                                                Actor actor, PausedDispatch paused) {
        StepState step = records().nextToCompensate(definition).orElseThrow(() ->
                new IllegalTransitionException(orderId, processState, "start a compensation (none left)"));
        StepDefinition spec = definition.step(step.name());
        String operation = spec.compensationOperation().orElseThrow();
        if (paused.holds(operation)) {
            release();
            park(operation, now, actor);
            return Optional.empty();
        }
        OffsetDateTime limitedUntil = paused.admit(operation, now);
        if (limitedUntil != null) {
            release();
            throttle(operation, limitedUntil, now, actor);
            return Optional.empty();
        }
        if (step.state() != StepStatus.Compensating) {
            moveStep(step, StepStatus.Compensating, now, actor, "undoing", StepStatus.Completed, StepStatus.TimedOut);
        }
        return Optional.of(lockAttempt(step, spec, true, owner, now, definition, paused));
    }

    /**
     * The waiting record's next attempt is over its operation's flow limit: it waits until
     * {@code until} (the due-order poller claims it then, or a freed slot's announcement sooner). Said in
     * the history once, not each time a poll finds the limit still reached.
     */
    private void throttle(String operation, OffsetDateTime until, OffsetDateTime now, Actor actor) {
        if (!operation.equals(throttledOn)) {
            noteTask(now, actor, throttledReason(operation));
        }
        throttledOn = operation;
        notBefore = until;
        updatedAt = now;
    }

    private static String throttledReason(String operation) {
        return "waits: flow limit of " + operation;
    }

    /** Parks the waiting record (Pending, or Compensating with nobody on it) on a paused operation. */
    private void park(String operation, OffsetDateTime now, Actor actor) {
        noteTask(now, actor, parkedReason(operation));
        pausedOn = operation;
        claim = null; // a retry's deadline left on a waiting record by versions before 1.x: nothing runs while parked
        notBefore = null;
        updatedAt = now;
    }

    private static String parkedReason(String operation) {
        return "waits: dispatch of " + operation + " is paused";
    }

    private Attempt lockAttempt(StepState step, StepDefinition spec, boolean compensation, String owner,
                                OffsetDateTime now, WorkflowDefinition definition, PausedDispatch paused) {
        String operation = compensation ? spec.compensationOperation().orElseThrow() : spec.operation();
        OffsetDateTime deadline = now.plus(spec.completeBy());
        java.time.Duration heartbeat = spec.heartbeat();
        epoch++;
        throttledOn = null;
        notBefore = null;
        updatedAt = now;
        String token = FenceToken.next();
        step.lock(owner, epoch, deadline, heartbeat == null ? null : now.plus(heartbeat), token,
                paused.limits(operation) ? operation : null); // the operation is counted only where a limit needs it
        summarize();
        return new Attempt(orderId, epoch, step.seq(), token, step.name(), operation, compensation, deadline, heartbeat,
                compensation ? null : spec.event(), records().receivedEvents(definition));
    }

    /** Ends the step's expired attempt, counting the failure; the caller decides what follows. */
    private void expire(StepState step) {
        step.unlock();
        step.countFailure(isCompensating());
        failureCount++;
    }

    /** The step named, whose running attempt has expired. */
    private StepState running(String stepName) {
        return records().running(stepName)
                .orElseThrow(() -> new IllegalTransitionException(orderId, processState, "find a running attempt of " + stepName));
    }

    private void toError(String reason, OffsetDateTime now, Actor actor) {
        release();
        recordError(reason);
        moveTask(ProcessState.Error, now, actor, reason);
    }

    /** The only writer of lastError: a refusal's text comes from outside and must fit the column. */
    private void recordError(String reason) {
        lastError = ReasonText.stored(reason);
    }

    /** Nothing runs any more (the caller unlocked the steps): the record's summary of them is cleared. */
    private void release() {
        claim = null;
        notBefore = null;
    }

    /**
     * The record's claim summarizes its running attempts' — one, or a parallel group's branches: who holds
     * them, and the earliest deadlines, which is what the supervisor's sweep and its indexes read. Each
     * attempt's own is on its step.
     */
    private void summarize() {
        claim = Claim.summary(records().locked().stream().map(StepState::claim).toList());
    }

    /** The record's claim; {@link Claim#NONE} when nothing runs. */
    private Claim held() {
        return Claim.of(claim);
    }

    private static OffsetDateTime earliest(OffsetDateTime a, OffsetDateTime b) {
        return a == null || b != null && b.isBefore(a) ? b : a;
    }

    private static OffsetDateTime latest(OffsetDateTime a, OffsetDateTime b) {
        return a == null || b != null && b.isAfter(a) ? b : a;
    }

    private StepState requireCurrent(long replyEpoch, int stepSeq, String transition) {
        return records().attempt(replyEpoch, stepSeq, epoch).filter(step -> held().isHeld()).orElseThrow(() ->
                new IllegalTransitionException(orderId, processState + "@epoch " + epoch,
                        transition + " for epoch " + replyEpoch + ", step " + stepSeq));
    }

    /** Lookups over the steps' records, in workflow order. */
    private StepRecords records() {
        return new StepRecords(steps);
    }

    /** Moves the task to {@code to}, as {@link ProcessState#leadsTo} allows, and records it. */
    private void moveTask(ProcessState to, OffsetDateTime now, Actor actor, String reason) {
        if (processState == null ? to != ProcessState.Pending : !processState.leadsTo(to)) {
            throw new IllegalTransitionException(orderId, processState, "move to " + to);
        }
        history.add(new HistoryEntry(orderId, ++historyCount, null, now, actor, processState, to, reason));
        processState = to;
        updatedAt = now;
    }

    /** Records what happened to the task without a change of state (a wait, a pause, a limit). */
    private void noteTask(OffsetDateTime now, Actor actor, String reason) {
        history.add(new HistoryEntry(orderId, ++historyCount, null, now, actor, processState, processState, reason));
    }

    /** Records what happened to a step without a change of its state (an attempt ended while undoing). */
    private void noteStep(StepState step, OffsetDateTime now, Actor actor, String reason) {
        history.add(new HistoryEntry(orderId, ++historyCount, step.name(), now, actor, step.state(), step.state(), reason));
    }

    private void moveStep(StepState step, StepStatus to, OffsetDateTime now, Actor actor, String reason,
                          StepStatus... from) {
        StepStatus old = step.move(to, now, from);
        history.add(new HistoryEntry(orderId, ++historyCount, step.name(), now, actor, old, to, reason));
        updatedAt = now;
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
        return notBefore;
    }

    public OffsetDateTime heartbeatBy() {
        return held().heartbeatBy();
    }

    /** The operation whose flow limit the order waits for; null if none holds it. */
    public String throttledOn() {
        return throttledOn;
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

    /** The steps' records, in workflow order. */
    public List<StepState> steps() {
        return records().inOrder();
    }
}
