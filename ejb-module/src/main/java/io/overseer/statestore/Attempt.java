package io.overseer.statestore;

import java.time.OffsetDateTime;

/**
 * One claimed attempt at one step — its operation, or its compensating operation — what the scheduler
 * hands to an agent, and what the reply must name (epoch, step and the attempt's random token).
 */
public record Attempt(String orderId, long epoch, int stepSeq, String token, String stepName, String operation,
                      boolean compensation, OffsetDateTime completeBy) {
}
