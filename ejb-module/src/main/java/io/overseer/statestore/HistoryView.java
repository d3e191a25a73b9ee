package io.overseer.statestore;

import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.OffsetDateTime;

/** One history entry as the API shows it; {@code step} is null for a transition of the task itself. */
@JsonbNillable
@JsonbPropertyOrder({"at", "step", "from", "to", "actor", "actorName", "reason"})
public record HistoryView(OffsetDateTime at, String step, String from, String to, String actor, String actorName,
                          String reason) {

    public static HistoryView of(HistoryEntry entry) {
        return new HistoryView(entry.at(), entry.stepName(), entry.fromState(), entry.toState(), entry.actor(),
                entry.actorName(), entry.reason());
    }
}
