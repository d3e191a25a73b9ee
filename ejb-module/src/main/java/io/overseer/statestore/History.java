package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.Transient;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The history an order's record writes as it moves: how many entries it has (stored with the record, so
 * that the next entry's position is known without reading the history table under the row lock), and the
 * entries added since {@link StateStore} last saved them.
 *
 * <p>Replaced, never changed in place, as {@link Claim} and {@link Waiting}: the record notices that its
 * history moved on however its provider tracks changes (EclipseLink's woven change tracking sees a
 * replaced embeddable at once). The unsaved entries, which are not stored with it, go along.
 */
@Embeddable
public class History {

    @Column(name = "history_count", nullable = false)
    private int count;
    @Transient
    private List<HistoryEntry> unsaved = new ArrayList<>();

    protected History() {
        // for JPA, and a new record
    }

    private History(int count, List<HistoryEntry> unsaved) {
        this.count = count;
        this.unsaved = unsaved;
    }

    /**
     * The history with an entry for the order or (with {@code stepName}) one of its steps added; {@code from}
     * equals {@code to} for a note.
     */
    History add(String orderId, String stepName, OffsetDateTime at, Actor actor, Object from, Object to, String reason) {
        unsaved.add(new HistoryEntry(orderId, count + 1, stepName, at, actor, from, to, reason));
        return new History(count + 1, unsaved);
    }

    /** The position of the last entry: a step done ranks by it (see {@link StepState#rank}). */
    int count() {
        return count;
    }

    /** The entries added since the last call. */
    List<HistoryEntry> drain() {
        List<HistoryEntry> drained = List.copyOf(unsaved);
        unsaved.clear();
        return drained;
    }
}
