package io.overseer.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.chaos.History.DeadLetter;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The broker's side of the history, read as the demo user (every role): alerts through a durable
 * subscription made before the first order (so none is missed while nobody listens, broker restarts
 * included), and the DLQ, browsed (left as it is). The status notifications are read during the run
 * ({@link NotificationCollector}).
 */
final class BrokerReader implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SUBSCRIPTION = "chaos-alerts";
    private static final long DRAIN_WAIT_MS = 3000;

    private final ActiveMQConnectionFactory factory;
    private final String clientId;

    /** The parameters of {@link #BrokerReader}'s URL ({@link ChaosStack#brokerUrl(String)}). */
    static final String URL_PARAMETERS = "callTimeout=30000&reconnectAttempts=0";

    /** @param brokerUrl the broker's or the pair's URL, with {@link #URL_PARAMETERS} */
    BrokerReader(String brokerUrl, String runId) {
        this.factory = new ActiveMQConnectionFactory(brokerUrl, "demo", "demo");
        this.clientId = "chaos-" + runId;
    }

    /** Makes the durable subscription to the alerts topic; alerts published from now on wait for {@link #alertedOrders}. */
    void subscribeToAlerts() {
        try (JMSContext jms = factory.createContext()) {
            jms.setClientID(clientId);
            jms.createDurableConsumer(jms.createTopic("alerts"), SUBSCRIPTION).close();
        }
    }

    /** Order ids named by the alerts published since {@link #subscribeToAlerts}. */
    Set<String> alertedOrders() throws IOException, JMSException {
        Set<String> orders = new HashSet<>();
        try (JMSContext jms = factory.createContext()) {
            jms.setClientID(clientId);
            try (JMSConsumer consumer = jms.createDurableConsumer(jms.createTopic("alerts"), SUBSCRIPTION)) {
                for (Message m = consumer.receive(DRAIN_WAIT_MS); m != null; m = consumer.receive(DRAIN_WAIT_MS)) {
                    orders.add(JSON.readTree(((TextMessage) m).getText()).path("orderId").asText());
                }
            }
        }
        return orders;
    }

    List<DeadLetter> deadLetters() throws JMSException {
        List<DeadLetter> letters = new ArrayList<>();
        try (JMSContext jms = factory.createContext(); QueueBrowser browser = jms.createBrowser(jms.createQueue("DLQ"))) {
            for (Object o : Collections.list(browser.getEnumeration())) {
                Message m = (Message) o;
                // The application names the origin; the broker itself (redelivery exhausted) only its own header.
                String origin = m.propertyExists("dlqOriginalDestination") ? m.getStringProperty("dlqOriginalDestination")
                        : m.getStringProperty("_AMQ_ORIG_ADDRESS");
                letters.add(new DeadLetter(m.getJMSMessageID(), m.getStringProperty("dlqReason"), origin,
                        m.getStringProperty(JmsSubmitter.BAD_MARK)));
            }
        }
        return letters;
    }

    @Override
    public void close() {
        factory.close();
    }
}
