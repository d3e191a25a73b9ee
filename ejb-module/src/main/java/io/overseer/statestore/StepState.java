package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * The state record of one step of a task (name, state, LockedBy, CompleteBy, FailureCount, attempts).
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

    @Column(name = "locked_by", length = 128)
    private String lockedBy;

    @Column(name = "complete_by")
    private OffsetDateTime completeBy;

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
    /** The JSON body of the event this step waited for, once received; null for other steps. */
    @Column(name = "event_payload")
    private String eventPayload;

    protected StepState() {
        // for JPA
    }

    StepState(OrderState task, int seq, String name, OffsetDateTime now) {
        this.stepId = task.orderId() + "/" + seq;
        this.task = task;
        this.seq = seq;
        this.name = name;
        this.state = StepStatus.NotStarted;
        this.updatedAt = now;
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

    void lock(String owner, OffsetDateTime deadline, String token) {
        lockedBy = owner;
        completeBy = deadline;
        fenceToken = token;
        attempts++;
    }

    void unlock() {
        lockedBy = null;
        completeBy = null;
        fenceToken = null;
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
        return lockedBy != null;
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
        return lockedBy;
    }

    public OffsetDateTime completeBy() {
        return completeBy;
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
