package io.overseer.notification;

import java.time.OffsetDateTime;

/** An event for an operator: an order needs attention. Published as JSON on the alerts topic. */
public record Alert(String orderId, String kind, String reason, String instance, OffsetDateTime raisedAt) {
}
