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
 * received so far, by name, for the agent.
 */
public record Attempt(String orderId, long epoch, int stepSeq, String token, String stepName, String operation,
                      boolean compensation, OffsetDateTime completeBy, Duration heartbeat, String event,
                      Map<String, String> events) {

    public boolean awaitsEvent() {
        return event != null;
    }
}
