package io.overseer.bench;

import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The order queue as a legacy client uses it: Artemis core client, user demo (role submitter), a persistent
 * TextMessage with the order JSON and overseerType=submit on queue "orders". One JMSContext per client
 * thread; a persistent send returns once the broker has the message.
 */
final class JmsOrders implements AutoCloseable {

    private final ActiveMQConnectionFactory factory;
    private final ThreadLocal<JMSContext> contexts;
    private final List<JMSContext> opened = new CopyOnWriteArrayList<>();

    JmsOrders(String host, int port) {
        this.factory = new ActiveMQConnectionFactory("tcp://" + host + ":" + port, "demo", "demo");
        this.contexts = ThreadLocal.withInitial(() -> {
            JMSContext c = factory.createContext(JMSContext.AUTO_ACKNOWLEDGE);
            opened.add(c);
            return c;
        });
    }

    Load.Submitter submitter(String customerPrefix) {
        return i -> {
            JMSContext jms = contexts.get();
            Queue orders = jms.createQueue("orders");
            TextMessage m = jms.createTextMessage("{\"customerId\":\"" + customerPrefix + i
                    + "\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]}");
            m.setStringProperty("overseerType", "submit");
            jms.createProducer().send(orders, m);
            return null;
        };
    }

    @Override
    public void close() {
        opened.forEach(JMSContext::close);
        factory.close();
    }
}
