package io.overseer.statestore;

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
import jakarta.persistence.Version;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The task-level state record of the pattern (OrderID, LockedBy, CompleteBy, ProcessState,
 * FailureCount) and the owner of its steps' records.
 *
 * <p>Lifecycle: {@code Pending --claim--> Processing --complete last step--> Processed};
 * {@code Processing --nontransient fault--> Error}; {@code Processing --complete-by passed-->
 * Pending} (supervisor retries, FailureCount + 1) or {@code --> Error} (supervisor gives up).
 * Every claim increments {@code epoch}; replies carry the epoch they answer, and a reply for any other
 * epoch is stale: the attempt it belongs to was abandoned.
 *
 * <p>Callers hold the row's pessimistic lock (see {@link StateStore}) while they call these methods.
 */
@Entity
@Table(name = "order_state")
public class OrderState {

    @Id
    @Column(name = "order_id", length = 36)
    private String orderId;

    @Column(name = "workflow", nullable = false, length = 64)
    private String workflow;

    @Enumerated(EnumType.STRING)
    @Column(name = "process_state", nullable = false, length = 16)
    private ProcessState processState;

    @Column(name = "locked_by", length = 128)
    private String lockedBy;

    @Column(name = "complete_by")
    private OffsetDateTime completeBy;

    @Column(name = "failure_count", nullable = false)
    private int failureCount;

    @Column(name = "epoch", nullable = false)
    private long epoch;

    @Column(name = "last_error", length = 1000)
    private String lastError;

    @Column(name = "created_at", nullable = false)
    private OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    private OffsetDateTime updatedAt;

    @Version
    @Column(name = "version", nullable = false)
    private long version;

    @OneToMany(mappedBy = "task", cascade = CascadeType.ALL, fetch = FetchType.EAGER)
    @OrderBy("seq ASC")
    private List<StepState> steps = new ArrayList<>();

    protected OrderState() {
        // for JPA
    }

    /** The record as the submission creates it: Pending, not locked, no complete-by, no failures. */
    public static OrderState pending(String orderId, String workflow, List<String> stepNames, OffsetDateTime now) {
        if (stepNames.isEmpty()) {
            throw new IllegalArgumentException("A workflow needs at least one step");
        }
        OrderState state = new OrderState();
        state.orderId = orderId;
        state.workflow = workflow;
        state.processState = ProcessState.Pending;
        state.createdAt = now;
        state.updatedAt = now;
        for (int seq = 0; seq < stepNames.size(); seq++) {
            state.steps.add(new StepState(state, seq, stepNames.get(seq), now));
        }
        return state;
    }

    /** A scheduler instance takes the task exclusively and starts its next step. */
    public Attempt claim(String owner, OffsetDateTime now, Duration completeWithin) {
        require(ProcessState.Pending, "claim");
        processState = ProcessState.Processing;
        lockedBy = owner;
        return startNextStep(now, completeWithin);
    }

    /** Whether a reply naming this epoch and step answers the attempt now running. */
    public boolean isCurrent(long replyEpoch, int stepSeq) {
        return processState == ProcessState.Processing && epoch == replyEpoch
                && runningStep().map(step -> step.seq() == stepSeq).orElse(false);
    }

    /**
     * The running step succeeded. Returns the next step's attempt if one remains (the task stays
     * Processing with a fresh complete-by), or empty when the task is now Processed.
     */
    public Optional<Attempt> completeStep(long replyEpoch, int stepSeq, OffsetDateTime now, Duration completeWithin) {
        requireCurrent(replyEpoch, stepSeq, "complete a step");
        runningStep().orElseThrow().complete(now);
        if (steps.stream().allMatch(step -> step.state() == StepStatus.Completed)) {
            processState = ProcessState.Processed;
            lockedBy = null;
            completeBy = null;
            updatedAt = now;
            return Optional.empty();
        }
        return Optional.of(startNextStep(now, completeWithin));
    }

    /** The running step failed for good (nontransient fault): the task is in Error for an operator. */
    public void failStep(long replyEpoch, int stepSeq, String reason, OffsetDateTime now) {
        requireCurrent(replyEpoch, stepSeq, "fail a step");
        runningStep().orElseThrow().fail(now);
        toError(reason, now);
    }

    /** Whether the complete-by time of the running attempt has passed. */
    public boolean isExpired(OffsetDateTime now) {
        return processState == ProcessState.Processing && completeBy != null && completeBy.isBefore(now);
    }

    /** The failure count this record will have once the current expiry is counted. */
    public int failuresIncludingExpiry() {
        return failureCount + 1;
    }

    /** Supervisor: the attempt expired and will be tried again; back to Pending, to finish by {@code newCompleteBy}. */
    public void expireAndRetry(OffsetDateTime now, OffsetDateTime newCompleteBy) {
        requireExpired(now, "retry after expiry");
        failureCount++;
        runningStep().ifPresent(step -> step.reset(now));
        processState = ProcessState.Pending;
        lockedBy = null;
        completeBy = newCompleteBy;
        lastError = "complete-by passed (failure " + failureCount + ")";
        updatedAt = now;
    }

    /** Supervisor: the attempt expired once too often; the task is in Error for an operator. */
    public void expireAndGiveUp(OffsetDateTime now) {
        requireExpired(now, "give up after expiry");
        failureCount++;
        runningStep().ifPresent(step -> step.fail(now));
        toError("complete-by passed " + failureCount + " times; gave up", now);
    }

    private Attempt startNextStep(OffsetDateTime now, Duration completeWithin) {
        StepState next = steps.stream()
                .filter(step -> step.state() == StepStatus.NotStarted)
                .findFirst()
                .orElseThrow(() -> new IllegalTransitionException(orderId, processState, "start a step (none left)"));
        next.start(now);
        epoch++;
        completeBy = now.plus(completeWithin);
        updatedAt = now;
        return new Attempt(orderId, epoch, next.seq(), next.name(), completeBy);
    }

    private void toError(String reason, OffsetDateTime now) {
        processState = ProcessState.Error;
        lockedBy = null;
        completeBy = null;
        lastError = reason == null ? null : reason.substring(0, Math.min(reason.length(), 1000));
        updatedAt = now;
    }

    private Optional<StepState> runningStep() {
        return steps.stream().filter(step -> step.state() == StepStatus.Running).findFirst();
    }

    private void require(ProcessState expected, String transition) {
        if (processState != expected) {
            throw new IllegalTransitionException(orderId, processState, transition);
        }
    }

    private void requireCurrent(long replyEpoch, int stepSeq, String transition) {
        if (!isCurrent(replyEpoch, stepSeq)) {
            throw new IllegalTransitionException(orderId, processState + "@epoch " + epoch,
                    transition + " for epoch " + replyEpoch + ", step " + stepSeq);
        }
    }

    private void requireExpired(OffsetDateTime now, String transition) {
        if (!isExpired(now)) {
            throw new IllegalTransitionException(orderId, processState + " until " + completeBy, transition);
        }
    }

    public String orderId() {
        return orderId;
    }

    public String workflow() {
        return workflow;
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
        return List.copyOf(steps);
    }
}
