package io.overseer.query;

import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.ProcessState;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.OffsetDateTime;

/**
 * One history entry as the API shows it; {@code step} is null for a transition of the task itself.
 * {@code seq} numbers an order's entries from 1 without gaps (the id of its Server-Sent Event).
 */
@JsonbNillable
@JsonbPropertyOrder({"seq", "at", "step", "from", "to", "actor", "actorName", "reason"})
public record HistoryView(int seq, OffsetDateTime at, String step, String from, String to, String actor,
                          String actorName, String reason) {

    public static HistoryView of(HistoryEntry entry) {
        return new HistoryView(entry.seq(), entry.at(), entry.stepName(), entry.fromState(), entry.toState(),
                entry.actor(), entry.actorName(), entry.reason());
    }

    /** Whether this moves the task (not a step) into a state it rests in: Processed, Compensated, Error. */
    public boolean endsTask() {
        return step == null && ProcessState.valueOf(to).isFinal();
    }
}
