package io.overseer.notification;

import java.time.OffsetDateTime;

/**
 * An event for an operator: an order needs attention. Published as JSON on the alerts topic. {@code traceId}: the
 * order's trace (docs/tracing.md), absent when it is not traced.
 */
public record Alert(String orderId, String kind, String reason, String instance, OffsetDateTime raisedAt, String traceId) {
}
