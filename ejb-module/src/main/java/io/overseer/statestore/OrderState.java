package io.overseer.statestore;

import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.time.Duration;
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
 * <p>Its public methods are the transitions, and only they move it. The record's columns and the checked
 * moves the transitions are built from are {@link OrderRecord}'s; the concerns the transitions share live
 * beside it, in this package: what the record waits for ({@link Waiting}), which of a stage's steps may
 * start ({@link StageAdmission}), the forward run ({@link Stage}), undoing and abandoning
 * ({@link Undoing}), the supervisor's handling of an expired attempt ({@link ExpiredAttempt}), the
 * history ({@link History}), the claim ({@link Claim}) and the step lookups ({@link StepRecords}).
 */
@Entity
@Table(name = "order_state")
public class OrderState extends OrderRecord {

    @OneToMany(mappedBy = "task", cascade = CascadeType.ALL, fetch = FetchType.EAGER)
    @OrderBy("seq ASC")
    private List<StepState> steps = new ArrayList<>();

    protected OrderState() {
        // for JPA
    }

    private OrderState(String orderId, String workflow, String workflowVersion, OffsetDateTime now) {
        super(orderId, workflow, workflowVersion, now);
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
        OrderState state = new OrderState(orderId, workflow, version, now);
        for (int seq = 0; seq < stepNames.size(); seq++) {
            state.steps.add(new StepState(state, seq, stepNames.get(seq), now));
        }
        state.waitAs(Waiting.NONE.until(notBefore));
        state.moveTask(ProcessState.Pending, now, actor, "submitted" + (version == null ? "" : " (" + workflow + "@" + version + ")")
                + (notBefore == null ? "" : "; starts at " + notBefore));
        return state;
    }

    /**
     * Whether a scheduler may claim this record now: Pending, or Compensating with nobody on it, or
     * Processing with a branch of its parallel group waiting to start (a retry's backoff, a hand-back, a
     * flow limit: then a not-before says when) — and not parked, and not before its not-before.
     */
    public boolean isClaimable(OffsetDateTime now) {
        boolean waits = processState() == ProcessState.Pending
                || (processState() == ProcessState.Compensating && !held().isHeld())
                || (processState() == ProcessState.Processing && notBefore() != null);
        return waits && pausedOn() == null && !waiting().isLater(now);
    }

    /**
     * A scheduler claims the record and starts its next attempts — the next step, or every waiting step of
     * its parallel group — except those whose operation is paused (the record parks on it, see the class
     * comment) or over its flow limit (they wait, the record says until when). Returns what started;
     * {@code reason} says in the history why it was claimed.
     */
    public List<Attempt> claim(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                               String reason, PausedDispatch paused) {
        if (!isClaimable(now)) {
            throw new IllegalTransitionException(orderId(), processState() + " locked by " + lockedBy()
                    + (pausedOn() == null ? "" : ", parked on " + pausedOn()), "claim");
        }
        PausedDispatch holding = paused.except(releasedFrom()); // an operator let it through one pause
        if (processState() == ProcessState.Compensating) {
            return new Undoing(this).start(owner, now, definition, actor, holding).stream().toList();
        }
        return new Stage(this).start(owner, now, definition, actor, holding, reason);
    }

    /** Whether a reply naming this epoch and step answers an attempt now running. */
    public boolean isCurrent(long replyEpoch, int stepSeq) {
        return held().isHeld() && records().attempt(replyEpoch, stepSeq, epoch()).isPresent();
    }

    /**
     * Whether {@code token} is the fencing token of the running attempt at step {@code stepSeq}. A reply
     * that names a running attempt's epoch and step with another token was not written by an agent that
     * saw the request: it is forged.
     */
    public boolean holdsToken(int stepSeq, String token) {
        return records().lockedAt(stepSeq).map(step -> FenceToken.matches(step.fenceToken(), token)).orElse(false);
    }

    /**
     * The running attempt succeeded. Returns the attempts that start now, held by {@code owner}: the
     * instance applying the reply — after a failover not the one that claimed, which may be dead, and
     * LockedBy and the history name who actually holds the task. A branch of a parallel group whose
     * siblings still run starts nothing: the last one to complete starts the next step. A paused next
     * attempt parks.
     */
    public List<Attempt> succeed(String owner, long replyEpoch, int stepSeq, OffsetDateTime now,
                                 WorkflowDefinition definition, Actor agent, PausedDispatch paused) {
        StepState step = requireCurrent(replyEpoch, stepSeq, "record success");
        step.unlock();
        if (processState() == ProcessState.Compensating) {
            moveStep(step, StepStatus.Compensated, now, agent, "compensation applied", StepStatus.Compensating);
            return new Undoing(this).continueWith(owner, now, definition, paused).stream().toList();
        }
        moveStep(step, StepStatus.Completed, now, agent, "applied", StepStatus.Running);
        rank(step);
        return new Stage(this).advance(owner, now, definition, agent, paused);
    }

    /** Whether the order's running step waits for {@code event}. */
    public boolean awaits(String event, WorkflowDefinition definition) {
        return processState() == ProcessState.Processing && waitFor(event, definition).isPresent();
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
            throw new IllegalTransitionException(orderId(), processState() + (held().isHeld() ? ", running "
                    + records().locked().stream().map(StepState::name).toList() : ""), "receive event '" + event + "' (not waiting for it)");
        }
        StepState step = waitFor(event, definition).orElseThrow();
        step.unlock();
        step.receive(payload);
        moveStep(step, StepStatus.Completed, now, sender, "event " + event + " received", StepStatus.Running);
        rank(step);
        return new Stage(this).advance(owner, now, definition, sender, paused);
    }

    /**
     * The running attempt was refused for good (a nontransient fault). The other branches of its group, if
     * any still run, are abandoned: their late replies will be stale, and their outcome being unknown, they
     * are undone with the completed steps. Returns a compensation to start, if any, held by {@code owner},
     * the instance applying the reply (see {@link #succeed}); a paused compensation parks.
     */
    public List<Attempt> fail(String owner, long replyEpoch, int stepSeq, String reason, OffsetDateTime now,
                              WorkflowDefinition definition, Actor agent, PausedDispatch paused) {
        StepState step = requireCurrent(replyEpoch, stepSeq, "record failure");
        step.unlock();
        if (processState() == ProcessState.Compensating) {
            moveStep(step, StepStatus.CompensationFailed, now, agent, reason, StepStatus.Compensating);
            toError("compensation of " + step.name() + " failed: " + reason, now, agent);
            return List.of();
        }
        moveStep(step, StepStatus.Failed, now, agent, reason, StepStatus.Running);
        Undoing undoing = new Undoing(this);
        OffsetDateTime abandonedUntil = undoing.abandonInFlight(now, agent, "abandoned: " + step.name() + " failed", definition);
        boolean compensate = definition.step(step.name()).onExhausted() == StepDefinition.OnExhausted.COMPENSATE;
        return undoing.giveUp(compensate, step.name() + " failed: " + reason, owner, now, definition, agent, paused,
                abandonedUntil).stream().toList();
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
            // another branch's pause must not hold this one: the next claim checks pauses again
            waitAs(waiting().unpark().due(now));
            summarize();
        } else {
            release();
            moveStep(step, StepStatus.NotStarted, now, agent, reason, StepStatus.Running);
            moveTask(ProcessState.Pending, now, agent, reason);
        }
        touch(now);
    }

    /** Whether the complete-by time of a running attempt has passed, or its heartbeat was missed. */
    public boolean isExpired(OffsetDateTime now) {
        return held().isHeld() && !records().expired(now).isEmpty();
    }

    /** The names of the steps whose running attempt has expired (a parallel group may have several). */
    public List<String> expiredSteps(OffsetDateTime now) {
        return records().expired(now).stream().map(StepState::name).toList();
    }

    /** The running step's failure count (of the kind of attempt running) once the current expiry is counted. */
    public int failuresIncludingExpiry(String stepName) {
        StepState step = running(stepName);
        return (isCompensating() ? step.compensationFailures() : step.failureCount()) + 1;
    }

    /**
     * Supervisor: the running attempt of {@code stepName} expired (see {@link #expiredSteps}); the failure is
     * counted and the recovery policy's {@code decision}, asked with {@link #failuresIncludingExpiry}, is
     * applied (see {@link ExpiredAttempt}). Returns when a scheduler is to claim the order next, if one is:
     * when the retry is due, or when the compensation may start.
     */
    public Optional<OffsetDateTime> recoverExpired(String stepName, ExpiryDecision decision, OffsetDateTime now,
                                                   WorkflowDefinition definition, Actor actor) {
        return ExpiredAttempt.of(this, running(stepName), now, actor).recover(decision, definition);
    }

    /**
     * Operator: an order in Error is run again from where it stopped — the failed steps (forward: the step,
     * or the branches of its group that did not complete), or the failed compensation — with their failure
     * counts cleared. It waits for a scheduler.
     */
    public void resubmit(OffsetDateTime now, Actor operator, String reason) {
        new Undoing(this).resubmit(now, operator, reason);
    }

    /**
     * Operator: the record parked on a paused operation goes on, its next attempt of that operation let
     * through the pause; an order not parked is refused. See {@link OrderRecord#letThrough}.
     */
    public void releaseFromPause(OffsetDateTime now, Actor operator, String reason) {
        letThrough(now, operator, reason);
    }

    /**
     * Operator: the order is abandoned and what it did is undone. Steps in flight are abandoned too (their
     * late replies will be stale) and, their outcome unknown, undone with the others. Returns whether a
     * compensation awaits a scheduler.
     */
    public boolean cancel(OffsetDateTime now, WorkflowDefinition definition, Actor operator, String reason) {
        new Undoing(this).cancel(now, definition, operator, reason);
        return isCompensating();
    }

    /** Entries for the transitions made since the last call, to be stored with the record. */
    public List<HistoryEntry> drainHistory() {
        return history().drain();
    }

    // What needs the steps, besides OrderRecord's moves: the transitions' helpers use these too.

    /**
     * Locks {@code step} for a new attempt (the next epoch, a fresh fencing token, its deadlines) and
     * returns the attempt; the record no longer waits for anything but the pause it may be parked on.
     */
    Attempt lockAttempt(StepState step, StepDefinition spec, boolean compensation, String owner,
                        OffsetDateTime now, WorkflowDefinition definition, PausedDispatch paused) {
        String operation = compensation ? spec.compensationOperation().orElseThrow() : spec.operation();
        if (operation != null) {
            attemptOf(operation);
        }
        OffsetDateTime deadline = now.plus(spec.completeBy());
        Duration heartbeat = spec.heartbeat();
        long epoch = nextEpoch(now);
        waitAs(waiting().started());
        String token = FenceToken.next();
        step.lock(owner, epoch, deadline, heartbeat == null ? null : now.plus(heartbeat), token,
                paused.limits(operation) ? operation : null); // the operation is counted only where a limit needs it
        summarize();
        return new Attempt(orderId(), epoch, step.seq(), token, step.name(), operation, compensation, deadline, heartbeat,
                compensation ? null : spec.event(), records().receivedEvents(definition), step.attempts(), workflow(),
                traceParent());
    }

    /** The step named, whose running attempt has expired. */
    private StepState running(String stepName) {
        return records().running(stepName).orElseThrow(() -> refusal("find a running attempt of " + stepName));
    }

    /**
     * The record's claim summarizes its running attempts' — one, or a parallel group's branches: who holds
     * them, and the earliest deadlines, which is what the supervisor's sweep and its indexes read. Each
     * attempt's own is on its step.
     */
    void summarize() {
        hold(Claim.summary(records().locked().stream().map(StepState::claim).toList()));
    }

    private StepState requireCurrent(long replyEpoch, int stepSeq, String transition) {
        return records().attempt(replyEpoch, stepSeq, epoch()).filter(step -> held().isHeld()).orElseThrow(() ->
                new IllegalTransitionException(orderId(), processState() + "@epoch " + epoch(),
                        transition + " for epoch " + replyEpoch + ", step " + stepSeq));
    }

    /** Lookups over the steps' records, in workflow order. */
    StepRecords records() {
        return new StepRecords(steps);
    }

    /** The steps' records, in workflow order. */
    public List<StepState> steps() {
        return records().inOrder();
    }
}
