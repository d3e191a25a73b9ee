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
 * The state record of one step of a task. Only its task ({@link OrderState}) moves it, under the
 * task's row lock, so a step never changes without the task knowing.
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
    @Column(name = "state", nullable = false, length = 16)
    private StepStatus state;

    @Column(name = "attempts", nullable = false)
    private int attempts;

    @Column(name = "updated_at", nullable = false)
    private OffsetDateTime updatedAt;

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

    void start(OffsetDateTime now) {
        move(StepStatus.NotStarted, StepStatus.Running, "start step " + name, now);
        attempts++;
    }

    void complete(OffsetDateTime now) {
        move(StepStatus.Running, StepStatus.Completed, "complete step " + name, now);
    }

    void fail(OffsetDateTime now) {
        move(StepStatus.Running, StepStatus.Failed, "fail step " + name, now);
    }

    /** The attempt was abandoned (its complete-by passed); the step will be started again. */
    void reset(OffsetDateTime now) {
        move(StepStatus.Running, StepStatus.NotStarted, "reset step " + name, now);
    }

    private void move(StepStatus from, StepStatus to, String transition, OffsetDateTime now) {
        if (state != from) {
            throw new IllegalTransitionException(task.orderId(), state, transition);
        }
        state = to;
        updatedAt = now;
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

    public int attempts() {
        return attempts;
    }

    public OffsetDateTime updatedAt() {
        return updatedAt;
    }
}
