package io.overseer.statestore;

import java.time.OffsetDateTime;

/**
 * One claimed attempt at one step — its operation, or its compensating operation — what the scheduler
 * hands to an agent, and what the reply must name (epoch and step).
 */
public record Attempt(String orderId, long epoch, int stepSeq, String stepName, String operation,
                      boolean compensation, OffsetDateTime completeBy) {
}
