package io.overseer.statestore;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;

/**
 * One claimed attempt at one step — its operation, or its compensating operation — what the scheduler
 * hands to an agent, and what the reply must name (epoch, step and the attempt's random token).
 * {@code heartbeat}: how long the agent may go without reporting that it is alive; null if the step asks
 * for no heartbeat. {@code event}: for a step that waits for an external event, its name — nothing is sent
 * to an agent, and {@code operation} is null. {@code events}: the bodies of the events the order has
 * received so far, by name, for the agent. {@code number}: which attempt at this step it is (1 for the first,
 * counting compensations and retries alike: the step's attempts count). {@code workflow} and {@code trace} (the
 * order's W3C traceparent, null if it is not traced) name the attempt's spans.
 */
public record Attempt(String orderId, long epoch, int stepSeq, String token, String stepName, String operation,
                      boolean compensation, OffsetDateTime completeBy, Duration heartbeat, String event,
                      Map<String, String> events, int number, String workflow, String trace) {

    /** An attempt outside any trace (tests that need no span). */
    public Attempt(String orderId, long epoch, int stepSeq, String token, String stepName, String operation,
                   boolean compensation, OffsetDateTime completeBy, Duration heartbeat, String event,
                   Map<String, String> events) {
        this(orderId, epoch, stepSeq, token, stepName, operation, compensation, completeBy, heartbeat, event, events,
                0, null, null);
    }

    public boolean awaitsEvent() {
        return event != null;
    }
}
