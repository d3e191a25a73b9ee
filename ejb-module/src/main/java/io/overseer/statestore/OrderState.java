package io.overseer.statestore;

import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
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
 * the last one makes it {@code Processed}. A step that fails for good either stops the task in
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
    @Column(name = "locked_by", length = 128)
    private String lockedBy;
    @Column(name = "complete_by")
    private OffsetDateTime completeBy;
    @Column(name = "not_before")
    private OffsetDateTime notBefore;
    /** While an attempt calling an operation with a flow limit runs: that operation (V15, counted by the limit). */
    @Column(name = "running_operation", length = 64)
    private String runningOperation;
    /** The operation whose flow limit this waiting record waits for; null when none holds it. */
    @Column(name = "throttled_on", length = 64)
    private String throttledOn;
    /** While an attempt of a step with a heartbeat runs: when it expires unless its agent reports in. */
    @Column(name = "heartbeat_by")
    private OffsetDateTime heartbeatBy;
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

    /** Whether a scheduler may claim this record now: Pending, or Compensating with nobody on it, not parked. */
    public boolean isClaimable(OffsetDateTime now) {
        boolean waiting = processState == ProcessState.Pending
                || (processState == ProcessState.Compensating && lockedBy == null);
        return waiting && pausedOn == null && (notBefore == null || !notBefore.isAfter(now));
    }

    /** A scheduler instance takes the task exclusively and starts its next step, or next compensation. */
    public Attempt claim(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor) {
        return claim(owner, now, definition, actor, "claimed");
    }

    /** As {@link #claim(String, OffsetDateTime, WorkflowDefinition, Actor)}, saying in the history why. */
    public Attempt claim(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor, String reason) {
        return claim(owner, now, definition, actor, reason, PausedDispatch.NONE).orElseThrow();
    }

    /**
     * A scheduler claims the record and starts its next attempt — unless that attempt's operation is
     * paused: then the record is parked (see the class comment) and nothing starts.
     */
    public Optional<Attempt> claim(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                                   String reason, PausedDispatch paused) {
        if (!isClaimable(now)) {
            throw new IllegalTransitionException(orderId, processState + " locked by " + lockedBy
                    + (pausedOn == null ? "" : ", parked on " + pausedOn), "claim");
        }
        if (processState == ProcessState.Pending) {
            String operation = definition.step(nextStep().name()).operation();
            if (operation != null && paused.holds(operation)) { // a wait for an event calls nothing: never paused
                park(operation, now, actor);
                return Optional.empty();
            }
            OffsetDateTime limitedUntil = paused.admit(operation, now);
            if (limitedUntil != null) {
                throttle(operation, limitedUntil, now, actor);
                return Optional.empty();
            }
            moveTask(ProcessState.Processing, now, actor, reason);
            return Optional.of(startStep(owner, now, definition, actor, paused));
        }
        return startCompensation(owner, now, definition, actor, paused);
    }

    /** The operation this record waits for, parked while it is paused; null if it is not parked. */
    public String pausedOn() {
        return pausedOn;
    }

    /** Whether a reply naming this epoch and step answers the attempt now running. */
    public boolean isCurrent(long replyEpoch, int stepSeq) {
        return lockedBy != null && epoch == replyEpoch && lockedStep().map(s -> s.seq() == stepSeq).orElse(false);
    }

    /**
     * Whether {@code token} is the running attempt's fencing token. A reply that names the current epoch
     * and step with another token was not written by an agent that saw the request: it is forged.
     */
    public boolean holdsToken(String token) {
        // An attempt started before tokens existed (claimed by a version before V7) has none: its epoch
        // alone fences it, as it did then.
        return lockedStep().map(step -> step.fenceToken() == null || FenceToken.matches(step.fenceToken(), token))
                .orElse(false);
    }

    /**
     * The running attempt succeeded. Returns the next attempt, if any, started in place and held by
     * {@code owner}: the instance applying the reply — after a failover not the one that claimed, which
     * may be dead, and LockedBy and the history name who actually holds the task.
     */
    public Optional<Attempt> succeed(String owner, long replyEpoch, int stepSeq, OffsetDateTime now,
                                     WorkflowDefinition definition, Actor agent) {
        return succeed(owner, replyEpoch, stepSeq, now, definition, agent, PausedDispatch.NONE);
    }

    /** As {@link #succeed(String, long, int, OffsetDateTime, WorkflowDefinition, Actor)}; a paused next attempt parks. */
    public Optional<Attempt> succeed(String owner, long replyEpoch, int stepSeq, OffsetDateTime now,
                                     WorkflowDefinition definition, Actor agent, PausedDispatch paused) {
        StepState step = requireCurrent(replyEpoch, stepSeq, "record success");
        step.unlock();
        if (processState == ProcessState.Compensating) {
            moveStep(step, StepStatus.Compensated, now, agent, "compensation applied", StepStatus.Compensating);
            return continueCompensation(owner, now, definition, paused);
        }
        moveStep(step, StepStatus.Completed, now, agent, "applied", StepStatus.Running);
        return advance(owner, now, definition, agent, paused);
    }

    /** After a step completed: the order is Processed, or its next step starts (or parks on a pause). */
    private Optional<Attempt> advance(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                                      PausedDispatch paused) {
        if (steps.stream().allMatch(s -> s.state() == StepStatus.Completed)) {
            release();
            moveTask(ProcessState.Processed, now, actor, "every step completed");
            return Optional.empty();
        }
        Actor scheduler = Actor.of(Actor.Kind.scheduler, owner);
        String operation = definition.step(nextStep().name()).operation();
        if (operation != null && paused.holds(operation)) {
            release();
            moveTask(ProcessState.Pending, now, scheduler, parkedReason(operation));
            pausedOn = operation;
            return Optional.empty();
        }
        OffsetDateTime limitedUntil = paused.admit(operation, now);
        if (limitedUntil != null) {
            release();
            moveTask(ProcessState.Pending, now, scheduler, throttledReason(operation));
            throttledOn = operation;
            notBefore = limitedUntil;
            return Optional.empty();
        }
        return Optional.of(startStep(owner, now, definition, scheduler, paused));
    }

    /** The step now waiting for {@code event}, if the order's running attempt is that wait. */
    public boolean awaits(String event, WorkflowDefinition definition) {
        return processState == ProcessState.Processing && lockedStep()
                .map(step -> event.equals(definition.step(step.name()).event())).orElse(false);
    }

    /** Whether {@code event} was received already (a step that waited for it completed with it). */
    public boolean received(String event, WorkflowDefinition definition) {
        return steps.stream().anyMatch(step -> step.eventPayload() != null
                && event.equals(definition.step(step.name()).event()));
    }

    /**
     * An external event the running step waits for has arrived: the step completes, its body kept with it
     * for the agents of the steps that follow, and the order moves on as after a completed call. Returns
     * the next attempt, held by {@code owner}, the instance that took the event.
     *
     * @throws IllegalTransitionException the order is not waiting for this event now
     */
    public Optional<Attempt> receive(String event, String payload, String owner, OffsetDateTime now,
                                     WorkflowDefinition definition, Actor sender, PausedDispatch paused) {
        if (!awaits(event, definition)) {
            throw new IllegalTransitionException(orderId, processState + (lockedBy == null ? "" : ", running "
                    + lockedStep().map(StepState::name).orElse("?")), "receive event '" + event + "' (not waiting for it)");
        }
        StepState step = lockedStep().orElseThrow();
        step.unlock();
        step.receive(payload);
        moveStep(step, StepStatus.Completed, now, sender, "event " + event + " received", StepStatus.Running);
        return advance(owner, now, definition, sender, paused);
    }

    /**
     * The running attempt was refused for good (a nontransient fault). Returns a compensation to start, if
     * any, held by {@code owner}, the instance applying the reply (see {@link #succeed}).
     */
    public Optional<Attempt> fail(String owner, long replyEpoch, int stepSeq, String reason, OffsetDateTime now,
                                  WorkflowDefinition definition, Actor agent) {
        return fail(owner, replyEpoch, stepSeq, reason, now, definition, agent, PausedDispatch.NONE);
    }

    /** As {@link #fail(String, long, int, String, OffsetDateTime, WorkflowDefinition, Actor)}; a paused compensation parks. */
    public Optional<Attempt> fail(String owner, long replyEpoch, int stepSeq, String reason, OffsetDateTime now,
                                  WorkflowDefinition definition, Actor agent, PausedDispatch paused) {
        StepState step = requireCurrent(replyEpoch, stepSeq, "record failure");
        step.unlock();
        if (processState == ProcessState.Compensating) {
            moveStep(step, StepStatus.CompensationFailed, now, agent, reason, StepStatus.Compensating);
            toError("compensation of " + step.name() + " failed: " + reason, now, agent);
            return Optional.empty();
        }
        moveStep(step, StepStatus.Failed, now, agent, reason, StepStatus.Running);
        return giveUp(definition.step(step.name()), step.name() + " failed: " + reason, owner, now, definition, agent,
                paused);
    }

    /**
     * The agent handed the attempt back without calling the remote service (its instance is shutting
     * down): the task waits for a scheduler again at once, and no failure is counted — nothing was tried.
     */
    public void handBack(long replyEpoch, int stepSeq, String reason, OffsetDateTime now, Actor agent) {
        StepState step = requireCurrent(replyEpoch, stepSeq, "hand back");
        step.unlock();
        release();
        if (isCompensating()) {
            history.add(new HistoryEntry(orderId, ++historyCount, step.name(), now, agent, step.state(), step.state(), reason));
        } else {
            moveStep(step, StepStatus.NotStarted, now, agent, reason, StepStatus.Running);
            moveTask(ProcessState.Pending, now, agent, reason);
        }
        updatedAt = now;
    }

    /** Whether the complete-by time of the running attempt has passed, or its heartbeat was missed. */
    public boolean isExpired(OffsetDateTime now) {
        return lockedBy != null && (completeBy != null && completeBy.isBefore(now) || heartbeatMissed(now));
    }

    private boolean heartbeatMissed(OffsetDateTime now) {
        return heartbeatBy != null && heartbeatBy.isBefore(now);
    }

    /** Why the running attempt expired, for the history: its deadline, or its agent's silence. */
    private String expiryCause(OffsetDateTime now) {
        return completeBy != null && completeBy.isBefore(now) ? "complete-by passed" : "heartbeat missed";
    }

    /** The name of the step the running attempt belongs to. */
    public String lockedStepName() {
        return lockedStep().map(StepState::name).orElseThrow(() ->
                new IllegalTransitionException(orderId, processState, "name the running step (none)"));
    }

    public boolean isCompensating() {
        return processState == ProcessState.Compensating;
    }

    /** The running step's failure count (of the kind of attempt running) once the current expiry is counted. */
    public int failuresIncludingExpiry() {
        StepState step = lockedStep().orElseThrow();
        return (isCompensating() ? step.compensationFailures() : step.failureCount()) + 1;
    }

    /** Supervisor: the attempt expired and is tried again, not before {@code notBefore}, to finish by {@code newCompleteBy}. */
    public void retryAfterExpiry(OffsetDateTime now, OffsetDateTime retryAt, OffsetDateTime newCompleteBy, Actor actor) {
        String cause = expiryCause(now);
        StepState step = expire(now);
        String reason = cause + " (failure " + failureCount + "); retry";
        if (isCompensating()) {
            history.add(new HistoryEntry(orderId, ++historyCount, step.name(), now, actor, step.state(), step.state(), reason));
        } else {
            moveStep(step, StepStatus.NotStarted, now, actor, reason, StepStatus.Running);
            moveTask(ProcessState.Pending, now, actor, reason);
        }
        recordError(cause + " (failure " + failureCount + ")");
        notBefore = retryAt.isAfter(now) ? retryAt : null;
        completeBy = newCompleteBy;
    }

    /** Supervisor: the attempt expired once too often. Returns whether a compensation awaits a scheduler. */
    public boolean giveUpAfterExpiry(OffsetDateTime now, WorkflowDefinition definition, Actor actor) {
        String cause = expiryCause(now);
        StepState step = expire(now);
        String reason = step.name() + ": " + cause + " (" + failureCount + " expiries)";
        if (isCompensating()) {
            moveStep(step, StepStatus.CompensationFailed, now, actor, reason, StepStatus.Compensating);
            toError("compensation of " + reason, now, actor);
            return false;
        }
        moveStep(step, StepStatus.TimedOut, now, actor, reason, StepStatus.Running);
        giveUp(definition.step(step.name()), reason, null, now, definition, actor, PausedDispatch.NONE);
        return processState == ProcessState.Compensating;
    }

    /**
     * Operator: an order in Error is run again from where it stopped — the failed step (forward), or the
     * failed compensation — with that step's failure counts cleared. It waits for a scheduler.
     */
    public void resubmit(OffsetDateTime now, Actor operator, String reason) {
        if (processState != ProcessState.Error) {
            throw new IllegalTransitionException(orderId, processState, "resubmit (only an order in Error)");
        }
        Optional<StepState> compensation = steps.stream()
                .filter(s -> s.state() == StepStatus.CompensationFailed).findFirst();
        if (compensation.isPresent()) {
            compensation.get().clearFailures();
            moveStep(compensation.get(), StepStatus.Compensating, now, operator, reason, StepStatus.CompensationFailed);
            moveTask(ProcessState.Compensating, now, operator, reason);
        } else {
            StepState failed = steps.stream().filter(s -> s.state() == StepStatus.Failed || s.state() == StepStatus.TimedOut)
                    .findFirst().orElseThrow(() -> new IllegalTransitionException(orderId, processState, "find the failed step"));
            failed.clearFailures();
            moveStep(failed, StepStatus.NotStarted, now, operator, reason, StepStatus.Failed, StepStatus.TimedOut);
            moveTask(ProcessState.Pending, now, operator, reason);
        }
        recordError(null);
        notBefore = null;
    }

    /**
     * Operator: the order is abandoned and what it did is undone. A step in flight is abandoned too (its
     * late reply will be stale) and, its outcome unknown, undone with the others. Returns whether a
     * compensation awaits a scheduler.
     */
    public boolean cancel(OffsetDateTime now, WorkflowDefinition definition, Actor operator, String reason) {
        if (processState == ProcessState.Error && steps.stream().anyMatch(s -> s.state() == StepStatus.CompensationFailed)) {
            resubmit(now, operator, reason);
            return true;
        }
        if (processState != ProcessState.Pending && processState != ProcessState.Processing
                && processState != ProcessState.Error) {
            throw new IllegalTransitionException(orderId, processState, "cancel");
        }
        // A wait for an event has no agent that could still be calling: nothing to wait out.
        boolean waitingForEvent = lockedStep().map(step -> definition.step(step.name()).awaitsEvent()).orElse(false);
        OffsetDateTime abandonedUntil = lockedBy == null || waitingForEvent ? null : completeBy;
        // A step reset after expired attempts may have been applied by one of them: undo it too.
        inOrder().stream().filter(s -> s.state() == StepStatus.NotStarted && s.attempts() > 0).forEach(s ->
                moveStep(s, StepStatus.TimedOut, now, operator, "earlier attempts expired; outcome unknown",
                        StepStatus.NotStarted));
        lockedStep().ifPresent(step -> {
            step.unlock();
            moveStep(step, StepStatus.TimedOut, now, operator, "abandoned: " + reason, StepStatus.Running);
        });
        release();
        pausedOn = null; // it no longer waits for its forward step; its compensations may park again
        throttledOn = null;
        // An agent may still be calling for the abandoned attempt until its complete-by; undoing before
        // then could be overtaken by that late call. Agents never call past the complete-by.
        notBefore = abandonedUntil != null && abandonedUntil.isAfter(now) ? abandonedUntil : null;
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

    private Optional<Attempt> giveUp(StepDefinition step, String reason, String owner, OffsetDateTime now,
                                     WorkflowDefinition definition, Actor actor, PausedDispatch paused) {
        release();
        if (step.onExhausted() == StepDefinition.OnExhausted.ERROR) {
            toError(reason, now, actor);
            return Optional.empty();
        }
        recordError(reason);
        moveTask(ProcessState.Compensating, now, actor, reason);
        return owner == null ? finishIfNothingToUndo(now, definition, actor)
                : continueCompensation(owner, now, definition, paused);
    }

    private Optional<Attempt> continueCompensation(String owner, OffsetDateTime now, WorkflowDefinition definition,
                                                   PausedDispatch paused) {
        Optional<Attempt> next = finishIfNothingToUndo(now, definition, Actor.of(Actor.Kind.scheduler, owner));
        return processState == ProcessState.Compensating
                ? startCompensation(owner, now, definition, Actor.of(Actor.Kind.scheduler, owner), paused)
                : next;
    }

    private Optional<Attempt> finishIfNothingToUndo(OffsetDateTime now, WorkflowDefinition definition, Actor actor) {
        if (nextToCompensate(definition).isEmpty()) {
            release();
            moveTask(ProcessState.Compensated, now, actor, "every completed step undone");
        }
        return Optional.empty();
    }

    private StepState nextStep() {
        return inOrder().stream().filter(s -> s.state() == StepStatus.NotStarted).findFirst()
                .orElseThrow(() -> new IllegalTransitionException(orderId, processState, "start a step (none left)"));
    }

    private Attempt startStep(String owner, OffsetDateTime now, WorkflowDefinition definition, Actor actor,
                              PausedDispatch paused) {
        StepState step = nextStep();
        StepDefinition spec = definition.step(step.name());
        moveStep(step, StepStatus.Running, now, actor, spec.awaitsEvent() ? "waits for event " + spec.event() : "started",
                StepStatus.NotStarted);
        return lockAttempt(step, spec, false, owner, now, definition, paused);
    }

    private Optional<Attempt> startCompensation(String owner, OffsetDateTime now, WorkflowDefinition definition,
                                                Actor actor, PausedDispatch paused) {
        StepState step = nextToCompensate(definition).orElseThrow(() ->
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
            history.add(new HistoryEntry(orderId, ++historyCount, null, now, actor, processState, processState,
                    throttledReason(operation)));
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
        history.add(new HistoryEntry(orderId, ++historyCount, null, now, actor, processState, processState,
                parkedReason(operation)));
        pausedOn = operation;
        completeBy = null; // a retry's deadline, left on the waiting record: it does not run while parked
        notBefore = null;
        updatedAt = now;
    }

    private static String parkedReason(String operation) {
        return "waits: dispatch of " + operation + " is paused";
    }

    /** An unfinished compensation first, then the newest step that needs undoing and can be undone. */
    private Optional<StepState> nextToCompensate(WorkflowDefinition definition) {
        List<StepState> steps = inOrder();
        for (int i = steps.size() - 1; i >= 0; i--) {
            if (steps.get(i).state() == StepStatus.Compensating) {
                return Optional.of(steps.get(i));
            }
        }
        for (int i = steps.size() - 1; i >= 0; i--) {
            StepState step = steps.get(i);
            if (step.state().needsCompensation() && definition.step(step.name()).compensationOperation().isPresent()) {
                return Optional.of(step);
            }
        }
        return Optional.empty();
    }

    private Attempt lockAttempt(StepState step, StepDefinition spec, boolean compensation, String owner,
                                OffsetDateTime now, WorkflowDefinition definition, PausedDispatch paused) {
        String operation = compensation ? spec.compensationOperation().orElseThrow() : spec.operation();
        OffsetDateTime deadline = now.plus(spec.completeBy());
        java.time.Duration heartbeat = spec.heartbeat();
        epoch++;
        lockedBy = owner;
        completeBy = deadline;
        heartbeatBy = heartbeat == null ? null : now.plus(heartbeat);
        runningOperation = paused.limits(operation) ? operation : null; // counted only where a limit needs it
        throttledOn = null;
        notBefore = null;
        updatedAt = now;
        String token = FenceToken.next();
        step.lock(owner, deadline, token);
        return new Attempt(orderId, epoch, step.seq(), token, step.name(), operation, compensation, deadline, heartbeat,
                compensation ? null : spec.event(), receivedEvents(definition));
    }

    /** The bodies of the events received so far, by event name: every attempt hands them to its agent. */
    private java.util.Map<String, String> receivedEvents(WorkflowDefinition definition) {
        if (steps.stream().allMatch(step -> step.eventPayload() == null)) {
            return java.util.Map.of(); // most orders: no map built per attempt on the hot path
        }
        java.util.Map<String, String> events = new java.util.TreeMap<>();
        for (StepState step : steps) {
            if (step.eventPayload() != null) {
                events.put(definition.step(step.name()).event(), step.eventPayload());
            }
        }
        return events;
    }

    private StepState expire(OffsetDateTime now) {
        if (!isExpired(now)) {
            throw new IllegalTransitionException(orderId, processState + " until " + completeBy, "expire");
        }
        StepState step = lockedStep().orElseThrow();
        step.unlock();
        step.countFailure(isCompensating());
        failureCount++;
        release();
        return step;
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

    private void release() {
        lockedBy = null;
        completeBy = null;
        heartbeatBy = null;
        runningOperation = null;
        notBefore = null;
    }

    private StepState requireCurrent(long replyEpoch, int stepSeq, String transition) {
        if (!isCurrent(replyEpoch, stepSeq)) {
            throw new IllegalTransitionException(orderId, processState + "@epoch " + epoch,
                    transition + " for epoch " + replyEpoch + ", step " + stepSeq);
        }
        return lockedStep().orElseThrow();
    }

    /**
     * The steps in workflow order, however they were read: a batch read joins them in, where @OrderBy is
     * not promised, and the state machine walks them by position.
     */
    private List<StepState> inOrder() {
        List<StepState> ordered = new ArrayList<>(steps);
        ordered.sort(java.util.Comparator.comparingInt(StepState::seq));
        return ordered;
    }

    private Optional<StepState> lockedStep() {
        return steps.stream().filter(StepState::isLocked).findFirst();
    }

    private void moveTask(ProcessState to, OffsetDateTime now, Actor actor, String reason) {
        history.add(new HistoryEntry(orderId, ++historyCount, null, now, actor, processState, to, reason));
        processState = to;
        updatedAt = now;
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
        return lockedBy;
    }

    public OffsetDateTime completeBy() {
        return completeBy;
    }

    public OffsetDateTime notBefore() {
        return notBefore;
    }

    public OffsetDateTime heartbeatBy() {
        return heartbeatBy;
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

    public List<StepState> steps() {
        return inOrder();
    }
}
