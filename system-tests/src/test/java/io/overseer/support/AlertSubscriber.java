package io.overseer.support;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/** Listens on the alerts topic with the real Artemis JMS client, as an operator's console would. */
public final class AlertSubscriber implements AutoCloseable {

    private final ActiveMQConnectionFactory factory;
    private final JMSContext context;
    private final JMSConsumer consumer;

    public AlertSubscriber(String brokerUrl, String user, String password) {
        factory = new ActiveMQConnectionFactory(brokerUrl, user, password);
        context = factory.createContext();
        consumer = context.createConsumer(context.createTopic("alerts"));
    }

    /** Waits for an alert about the order, skipping alerts about other orders. */
    public Optional<JsonNode> awaitFor(String orderId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            TextMessage message = (TextMessage) consumer.receive(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (message == null) {
                return Optional.empty();
            }
            try {
                JsonNode alert = Http.JSON.readTree(message.getText());
                if (orderId.equals(alert.path("orderId").asText())) {
                    return Optional.of(alert);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (jakarta.jms.JMSException e) {
                throw new IllegalStateException(e);
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        context.close();
        factory.close();
    }
}
