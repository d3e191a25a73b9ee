package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * The state record of one step of a task (name, state, its running attempt's {@link Claim}, FailureCount, attempts).
 * Only its task ({@link OrderState}) moves it, under the task's row lock, and records each move in
 * the history.
 */
@Entity
@Table(name = "step_state")
public class StepState {

    @Id
    @Column(name = "step_id", length = 48)
    private String stepId;

    @ManyToOne(optional = false)
    @JoinColumn(name = "order_id", nullable = false)
    private OrderState task;

    @Column(name = "seq", nullable = false)
    private int seq;

    @Column(name = "name", nullable = false, length = 64)
    private String name;

    @Enumerated(EnumType.STRING)
    @Column(name = "state", nullable = false, length = 24)
    private StepStatus state;

    /** The running attempt's; null when none runs. */
    @Embedded
    private Claim claim;

    @Column(name = "failure_count", nullable = false)
    private int failureCount;

    @Column(name = "compensation_failures", nullable = false)
    private int compensationFailures;

    @Column(name = "attempts", nullable = false)
    private int attempts;

    @Column(name = "updated_at", nullable = false)
    private OffsetDateTime updatedAt;

    /** The running attempt's random fencing token; null when no attempt runs. */
    @Column(name = "fence_token", length = 32)
    private String fenceToken;
    /** The running attempt's epoch (the order's counter when it started); 0 before V16 or never run. */
    @Column(name = "epoch")
    private Long epoch;
    /** While an attempt calling an operation with a flow limit runs: that operation (counted by the limit). */
    @Column(name = "running_operation", length = 64)
    private String runningOperation;
    /** A branch waiting for its retry: not started again before this (its own backoff). */
    @Column(name = "not_before")
    private OffsetDateTime dueAt;
    /** The order's history count when this step last completed or was abandoned: undo goes newest first. */
    @Column(name = "done_rank")
    private Integer doneRank;
    /** The JSON body of the event this step waited for, once received; null for other steps. */
    @Column(name = "event_payload")
    private String eventPayload;

    protected StepState() {
        // for JPA
    }

    StepState(OrderState task, int seq, String name, OffsetDateTime now) {
        this.stepId = idOf(task.orderId(), seq);
        this.task = task;
        this.seq = seq;
        this.name = name;
        this.state = StepStatus.NotStarted;
        this.updatedAt = now;
    }

    /** A step record's id: its order's id and its position. */
    public static String idOf(String orderId, int seq) {
        return orderId + "/" + seq;
    }

    /** Moves to {@code to} if the step is in one of {@code from}; returns the state it left. */
    StepStatus move(StepStatus to, OffsetDateTime now, StepStatus... from) {
        for (StepStatus allowed : from) {
            if (state == allowed) {
                StepStatus old = state;
                state = to;
                updatedAt = now;
                return old;
            }
        }
        throw new IllegalTransitionException(task.orderId(), name + " " + state, "move step to " + to);
    }

    void lock(String owner, long attemptEpoch, OffsetDateTime deadline, OffsetDateTime heartbeatDeadline, String token,
              String limitedOperation) {
        claim = Claim.held(owner, deadline, heartbeatDeadline);
        epoch = attemptEpoch;
        fenceToken = token;
        runningOperation = limitedOperation;
        dueAt = null;
        attempts++;
    }

    void unlock() {
        claim = null;
        fenceToken = null;
        runningOperation = null;
    }

    void dueAt(OffsetDateTime at) {
        dueAt = at;
    }

    OffsetDateTime dueAt() {
        return dueAt;
    }

    /** Records that the step completed, or was abandoned with its outcome unknown, at this point of the history. */
    void rank(int historyCount) {
        doneRank = historyCount;
    }

    /** The running attempt's epoch; 0 for an attempt started before epochs were kept per step. */
    long epoch() {
        return epoch == null ? 0 : epoch;
    }

    int doneRank() {
        return doneRank == null ? 0 : doneRank;
    }

    /** While an attempt of a step with a heartbeat runs: when it expires unless its agent reports in. */
    public OffsetDateTime heartbeatBy() {
        return claim().heartbeatBy();
    }

    /** The running attempt's claim; {@link Claim#NONE} when none runs. */
    Claim claim() {
        return Claim.of(claim);
    }

    /** Whether the running attempt's complete-by has passed, or its heartbeat was missed. */
    boolean isExpired(OffsetDateTime now) {
        return claim().isExpired(now);
    }

    void receive(String payload) {
        eventPayload = payload;
    }

    public String eventPayload() {
        return eventPayload;
    }

    String fenceToken() {
        return fenceToken;
    }

    int countFailure(boolean compensation) {
        return compensation ? ++compensationFailures : ++failureCount;
    }

    void clearFailures() {
        failureCount = 0;
        compensationFailures = 0;
    }

    boolean isLocked() {
        return claim().isHeld();
    }

    public int seq() {
        return seq;
    }

    public String name() {
        return name;
    }

    public StepStatus state() {
        return state;
    }

    public String lockedBy() {
        return claim().lockedBy();
    }

    public OffsetDateTime completeBy() {
        return claim().completeBy();
    }

    public int failureCount() {
        return failureCount;
    }

    public int compensationFailures() {
        return compensationFailures;
    }

    public int attempts() {
        return attempts;
    }

    public OffsetDateTime updatedAt() {
        return updatedAt;
    }
}
