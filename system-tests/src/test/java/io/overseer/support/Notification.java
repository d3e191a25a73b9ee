package io.overseer.support;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A status notification as a submitter receives it: correlation id, the event property and the JSON body. */
public record Notification(String correlationId, String eventProperty, JsonNode body) {

    /** Events after which nothing more is sent about an order (until an operator acts). */
    public static final Set<String> FINAL = Set.of("processed", "compensated", "failed");

    public String event() {
        return body.path("event").asText();
    }

    public String orderId() {
        return body.path("orderId").asText();
    }

    public static Notification of(String correlationId, String eventProperty, String json) {
        try {
            return new Notification(correlationId, eventProperty, Http.JSON.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Notification of(Message message) {
        try {
            return of(message.getJMSCorrelationID(), message.getStringProperty("overseerEvent"),
                    ((TextMessage) message).getText());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Receives notifications until a final one, or until {@code timeout} passes. */
    public static List<Notification> untilFinal(JMSConsumer consumer, Duration timeout) {
        List<Notification> received = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Message message = consumer.receive(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (message == null) {
                break;
            }
            Notification notification = of(message);
            received.add(notification);
            if (FINAL.contains(notification.event())) {
                break;
            }
        }
        return received;
    }

    public static List<String> events(List<Notification> notifications) {
        return notifications.stream().map(Notification::event).toList();
    }
}
