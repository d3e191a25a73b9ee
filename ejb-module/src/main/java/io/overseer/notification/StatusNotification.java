package io.overseer.notification;

import java.time.OffsetDateTime;

/**
 * The JSON body of a status notification. {@code step} and {@code stepState} are set for step events,
 * {@code reason} when the transition has one (why it failed, who resubmitted).
 */
public record StatusNotification(String orderId, String event, String processState, String step, String stepState,
                                 String reason, OffsetDateTime at) {
}
