package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.AlertSubscriber;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Forged agent replies change nothing. Epochs and step numbers are small integers: 24 replies cover every
 * attempt a young three-step order can be at. Sent as the application's own broker user (the only user
 * the broker lets send on agent.replies, so a stolen application password is the worst case), they still
 * lack the running attempt's random token: the order goes on only when the real agent answers, the
 * effect is applied once, the reply that named the running attempt is dead-lettered with its reason, and
 * an alert is raised. (That nobody else may send or read there at all: BrokerSecurityIT.)
 */
class ForgedReplyIT extends DeployedWarIT {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Test
    void repliesWithoutTheAttemptsTokenChangeNothingAndRaiseAnAlert() throws Exception {
        simulator.fault("arrange-shipping", "hang", 1.0, 0);
        String orderId;
        try (AlertSubscriber alerts = TestStack.alerts()) {
            orderId = api.submit("c-forger", "slow-ship");
            Poll.until("shipping running", Duration.ofSeconds(30), () -> shippingRunning(orderId));

            forgeSucceededReplies(orderId);

            Optional<JsonNode> alert = alerts.awaitFor(orderId, Duration.ofSeconds(30));
            assertTrue(alert.isPresent(), "a forged reply for the running attempt raises an alert");
            assertEquals("forged-reply", alert.get().path("kind").asText());
            Message deadLetter = deadLetterFor(orderId);
            assertTrue(deadLetter.getStringProperty("dlqReason").contains("token"), deadLetter.getStringProperty("dlqReason"));
            assertEquals(TestStack.BROKER_APPLICATION.name(), deadLetter.getStringProperty("dlqOriginalSender"));
            JsonNode order = api.get(orderId);
            assertEquals("Processing", order.path("processState").asText(), "the forgeries moved nothing: " + order);
            assertEquals("Running", order.path("steps").get(1).path("state").asText());
            assertEquals(1, simulator.effects(orderId).size(), "reserve only: shipping was never applied");
        }

        simulator.clearFaults(); // the held call fails; the agent retries it within its deadline
        api.awaitState(orderId, Duration.ofSeconds(60), "Processed");
        assertEquals(2, simulator.effects(orderId).size(), "reserve and shipping, each once");
        assertEquals(0, simulator.stats().path("appliedTwice").asInt());
    }

    private boolean shippingRunning(String orderId) {
        JsonNode steps = api.get(orderId).path("steps");
        return "Running".equals(steps.get(1).path("state").asText());
    }

    /** SUCCEEDED for epochs 1-8 and steps 0-2, each with a token of the right form that nobody handed out. */
    private static void forgeSucceededReplies(String orderId) {
        try (var factory = TestStack.connectionFactory(TestStack.BROKER_APPLICATION); JMSContext jms = factory.createContext()) {
            for (int epoch = 1; epoch <= 8; epoch++) {
                for (int step = 0; step <= 2; step++) {
                    byte[] token = new byte[16];
                    RANDOM.nextBytes(token);
                    jms.createProducer().send(jms.createQueue("agent.replies"), "{\"orderId\":\"" + orderId + "\",\"epoch\":"
                            + epoch + ",\"stepSeq\":" + step + ",\"token\":\"" + HexFormat.of().formatHex(token)
                            + "\",\"operation\":\"arrange-shipping\",\"outcome\":\"SUCCEEDED\",\"detail\":\"forged\"}");
                }
            }
        }
    }

    private static Message deadLetterFor(String orderId) {
        try (var factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext();
             JMSConsumer consumer = jms.createConsumer(jms.createQueue("DLQ"), "orderId = '" + orderId + "'")) {
            Message message = consumer.receive(30_000);
            assertNotNull(message, "the forged reply for the running attempt reached the DLQ");
            return message;
        }
    }
}
