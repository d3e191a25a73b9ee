package io.overseer.statestore;

import java.time.OffsetDateTime;

/** One claimed attempt at one step: what the scheduler hands to an agent, and what the reply must name. */
public record Attempt(String orderId, long epoch, int stepSeq, String stepName, OffsetDateTime completeBy) {
}
