package io.overseer.messaging;

import jakarta.json.bind.annotation.JsonbPropertyOrder;

/**
 * One queue as Artemis management counts it: messages in it (including those in flight and scheduled),
 * consumers attached, messages delivered but not yet acknowledged, messages scheduled for later
 * delivery (redelivery backoff), and messages added since the broker started.
 */
@JsonbPropertyOrder({"name", "messageCount", "consumerCount", "deliveringCount", "scheduledCount", "messagesAdded"})
public record QueueStats(String name, long messageCount, int consumerCount, long deliveringCount, long scheduledCount,
                         long messagesAdded) {
}
