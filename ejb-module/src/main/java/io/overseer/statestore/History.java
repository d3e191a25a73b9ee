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

    /** Adds an entry for the order or (with {@code stepName}) one of its steps; {@code from} equals {@code to} for a note. */
    void add(String orderId, String stepName, OffsetDateTime at, Actor actor, Object from, Object to, String reason) {
        unsaved.add(new HistoryEntry(orderId, ++count, stepName, at, actor, from, to, reason));
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
