package io.overseer.chaos;

import io.overseer.chaos.History.Outcome;
import io.overseer.chaos.History.Submission;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The order queue as a legacy client uses it: a persistent TextMessage with the order, overseerType=submit,
 * the submission key as idempotencyKey and a named reply queue for status notifications. A send that
 * fails (broker down, frozen, restarting) is tried again with the same key on a fresh connection until a
 * deadline; a planned duplicate is the same message sent once more. A send that returned is "accepted":
 * the broker had it.
 */
final class JmsSubmitter implements AutoCloseable {

    static final Duration DEADLINE = Duration.ofSeconds(120);
    static final String BAD_MARK = "chaosBad";
    static final String USER = "demo";

    private final ActiveMQConnectionFactory factory;
    private final String replyQueue;
    private final ThreadLocal<JMSContext> contexts = new ThreadLocal<>();
    private final Set<JMSContext> open = ConcurrentHashMap.newKeySet();
    private final Set<String> badAccepted = ConcurrentHashMap.newKeySet();

    /**
     * Bounded calls and no silent reconnection: a failure must reach this class, which decides to retry (on
     * a fresh connection, which under --broker-ha starts again from the pair's URL list).
     */
    static final String URL_PARAMETERS = "callTimeout=5000&callFailoverTimeout=5000"
            + "&reconnectAttempts=0&clientFailureCheckPeriod=2000&connectionTTL=6000";

    /** @param brokerUrl the broker's or the pair's URL, with {@link #URL_PARAMETERS} */
    JmsSubmitter(String brokerUrl, String replyQueue) {
        this.factory = new ActiveMQConnectionFactory(brokerUrl, USER, USER);
        this.replyQueue = replyQueue;
    }

    Submission submit(PlannedOrder order) throws InterruptedException {
        if (order.bad()) {
            String error = untilSent(order, true);
            if (error == null) {
                badAccepted.add(order.key());
            }
            return null; // not an order: its fate is the DLQ rule's
        }
        String error = untilSent(order, false);
        boolean duplicateSent = false;
        if (error == null && order.duplicate()) {
            duplicateSent = untilSent(order, false) == null;
        }
        return new Submission(order.key(), order.customerId(), PlannedOrder.Channel.JMS,
                error == null ? Outcome.ACCEPTED : Outcome.GAVE_UP, List.of(), duplicateSent, error);
    }

    /** Keys of the malformed messages the broker accepted. */
    Set<String> badAccepted() {
        return Set.copyOf(badAccepted);
    }

    /** Null once sent; else the last failure, after the deadline. */
    private String untilSent(PlannedOrder order, boolean bad) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        String lastError = null;
        for (int attempt = 0; System.nanoTime() < deadline; attempt++) {
            try {
                send(order, bad);
                return null;
            } catch (JMSRuntimeException | JMSException e) {
                lastError = e.getClass().getSimpleName() + " " + e.getMessage();
                discardContext();
                Thread.sleep(Math.min(2000, 200L << Math.min(attempt, 4)));
            }
        }
        return lastError;
    }

    private void send(PlannedOrder order, boolean bad) throws JMSException {
        JMSContext jms = context();
        Queue orders = jms.createQueue("orders");
        TextMessage m = jms.createTextMessage(bad ? "this is not an order (" + order.key() + ")"
                : OrderBody.json(order.customerId()));
        m.setStringProperty("overseerType", "submit");
        m.setStringProperty("idempotencyKey", order.key());
        if (bad) {
            m.setStringProperty(BAD_MARK, order.key());
        } else {
            m.setJMSReplyTo(jms.createQueue(replyQueue));
            m.setJMSCorrelationID(order.key());
        }
        jms.createProducer().send(orders, m);
    }

    private JMSContext context() {
        JMSContext c = contexts.get();
        if (c == null) {
            c = factory.createContext(JMSContext.AUTO_ACKNOWLEDGE);
            contexts.set(c);
            open.add(c);
        }
        return c;
    }

    private void discardContext() {
        JMSContext c = contexts.get();
        contexts.remove();
        if (c != null) {
            open.remove(c);
            try {
                c.close();
            } catch (RuntimeException ignored) {
                // the connection is already broken: that is why it is discarded
            }
        }
    }

    @Override
    public void close() {
        open.forEach(c -> {
            try {
                c.close();
            } catch (RuntimeException ignored) {
                // closing at the end of the run; nothing depends on it
            }
        });
        factory.close();
    }
}
