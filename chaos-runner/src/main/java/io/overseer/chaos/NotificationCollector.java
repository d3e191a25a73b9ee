package io.overseer.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.chaos.History.Notice;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the run's reply queue while the run goes on, as a submitter that wants its status notifications
 * does. The broker keeps at most 10 MiB on a reply queue and drops what comes past it (broker.xml,
 * {@code overseer.reply.#}): a runner that read the queue only at the end lost every notification past the
 * first ~20,000 of a long run (the first long run with partitions reported 26,715 "never received").
 *
 * <p>One thread, one consumer; after any failure (a killed or frozen broker, a failover to the backup) it
 * opens a new connection from the broker URL's list and goes on. A notification whose acknowledgement was
 * lost with a connection is read twice: the checker compares the distinct notices of an order.
 */
final class NotificationCollector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NotificationCollector.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The URL's parameters: a failure surfaces within seconds, and this class reconnects itself. */
    static final String URL_PARAMETERS = "callTimeout=5000&reconnectAttempts=0";
    /** At the end: the queue counts as read once nothing came for this long. */
    private static final long QUIET_MS = 3000;
    private static final long RECEIVE_MS = 250;

    private final ActiveMQConnectionFactory factory;
    private final String queue;
    private final Map<String, List<Notice>> byOrder = new HashMap<>();
    private final Thread reader;
    private volatile boolean stopping;
    private volatile long lastReadNanos = System.nanoTime();
    private volatile boolean connected;
    private volatile long reconnects;

    /** Starts reading {@code queue} at once (the queue is created for the consumer if no notification made it yet). */
    NotificationCollector(String brokerUrl, String queue) {
        this.factory = new ActiveMQConnectionFactory(brokerUrl, JmsSubmitter.USER, JmsSubmitter.USER);
        this.queue = queue;
        this.reader = new Thread(this::read, "chaos-notifications");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        while (!stopping) {
            try (JMSContext jms = factory.createContext(); JMSConsumer consumer = jms.createConsumer(jms.createQueue(queue))) {
                connected = true;
                while (!stopping) {
                    Message m = consumer.receive(RECEIVE_MS);
                    if (m != null) {
                        add(m);
                    }
                }
            } catch (JMSRuntimeException | JMSException | IOException e) {
                connected = false;
                reconnects++;
                LOG.debug("Reading {} failed ({}); reconnecting", queue, e.toString());
                sleep(500);
            }
        }
    }

    private void add(Message m) throws JMSException, IOException {
        JsonNode n = JSON.readTree(((TextMessage) m).getText());
        Notice notice = new Notice(n.path("event").asText(), n.path("step").asText(null), n.path("at").asText());
        synchronized (byOrder) {
            byOrder.computeIfAbsent(n.path("orderId").asText(), id -> new ArrayList<>()).add(notice);
        }
        lastReadNanos = System.nanoTime();
    }

    /**
     * Every notification read, by order id, once the queue has been quiet for {@value #QUIET_MS} ms with the
     * consumer connected (the run is over: the application has sent what its outbox held); null if the
     * queue could not be read to its end within a minute (the report says the rule was not checked).
     */
    Map<String, List<Notice>> drain() throws InterruptedException {
        long giveUp = System.nanoTime() + 60_000_000_000L;
        while (!connected || System.nanoTime() - lastReadNanos < QUIET_MS * 1_000_000) {
            if (System.nanoTime() > giveUp) {
                close();
                LOG.warn("The reply queue {} could not be read to its end within 60 s (connected: {}); the"
                        + " notifications are not checked", queue, connected);
                return null;
            }
            Thread.sleep(100);
        }
        close();
        LOG.info("Read the status notifications of {} orders during the run ({} reconnections)", byOrder.size(),
                reconnects);
        synchronized (byOrder) {
            return new HashMap<>(byOrder);
        }
    }

    @Override
    public void close() {
        stopping = true;
        try {
            reader.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        factory.close();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
