package io.overseer.notification;

import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.OrderTransitions;
import io.overseer.statestore.ProcessState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The needs-operator alert follows from the transition itself: whichever actor moves an order to Error — a
 * reply's application, the supervisor giving up, an event — the stored transition ({@link OrderTransitions},
 * fired in its transaction) raises it, and it is published once that transaction commits
 * ({@link AlertPublisher}). One rule in one place, where each actor that could end in Error once had to
 * remember to call it.
 */
@ApplicationScoped
public class NeedsOperatorAlert {

    static final String KIND = "needs-operator";

    @Inject
    AlertPublisher alerts;

    void onTransitions(@Observes OrderTransitions transitions) {
        HistoryEntry toError = null;
        for (HistoryEntry entry : transitions.entries()) {
            if (entry.stepName() == null && ProcessState.Error.name().equals(entry.toState())) {
                toError = entry; // the task's own move, not a step's
            }
        }
        if (toError != null && transitions.processState() == ProcessState.Error) {
            alerts.raise(transitions.orderId(), transitions.traceParent(), KIND, toError.reason());
        }
    }
}
