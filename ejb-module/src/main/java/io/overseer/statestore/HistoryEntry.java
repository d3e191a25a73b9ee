package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * One transition of a task or of one of its steps: when, who, from what to what, and why. Append-only.
 * Keyed by (order, seq): no generated key, so a transition's rows go to PostgreSQL in one batch.
 */
@Entity
@Table(name = "order_history")
@IdClass(HistoryEntry.Key.class)
public class HistoryEntry {

    /** The primary key: the order and the entry's position in its history (a class, not a record: JPA sets its fields). */
    public static class Key implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private String orderId;
        private int seq;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && seq == key.seq && java.util.Objects.equals(orderId, key.orderId);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(orderId, seq);
        }
    }

    @Id
    @Column(name = "order_id", nullable = false, length = 36)
    private String orderId;

    @Id
    @Column(name = "seq", nullable = false)
    private int seq;

    @Column(name = "step_name", length = 64)
    private String stepName;

    @Column(name = "at", nullable = false)
    private OffsetDateTime at;

    @Column(name = "actor", nullable = false, length = 16)
    private String actor;

    @Column(name = "actor_name", nullable = false, length = 128)
    private String actorName;

    @Column(name = "from_state", length = 24)
    private String fromState;

    @Column(name = "to_state", nullable = false, length = 24)
    private String toState;

    @Column(name = "reason", length = ReasonText.MAX_LENGTH)
    private String reason;

    protected HistoryEntry() {
        // for JPA
    }

    HistoryEntry(String orderId, int seq, String stepName, OffsetDateTime at, Actor actor, Object from, Object to, String reason) {
        this.orderId = orderId;
        this.seq = seq;
        this.stepName = stepName;
        this.at = at;
        this.actor = actor.kind().name();
        this.actorName = actor.name();
        this.fromState = from == null ? null : from.toString();
        this.toState = to.toString();
        this.reason = ReasonText.stored(reason);
    }

    public String orderId() {
        return orderId;
    }

    /** Position in the order's history, from 1, gapless: the order's event id. */
    public int seq() {
        return seq;
    }

    public String stepName() {
        return stepName;
    }

    public OffsetDateTime at() {
        return at;
    }

    public String actor() {
        return actor;
    }

    public String actorName() {
        return actorName;
    }

    public String fromState() {
        return fromState;
    }

    public String toState() {
        return toState;
    }

    public String reason() {
        return reason;
    }
}
