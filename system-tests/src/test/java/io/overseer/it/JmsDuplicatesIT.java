package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.JmsProtocol;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import io.overseer.support.StompClient;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A message sent again — by a client retry, on any protocol, even concurrently — creates one order. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class JmsDuplicatesIT {

    static final int COPIES = 8;
    private static final Http.Credentials VIEWER = TestStack.credentials(TestStack.VIEWER);

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TheWar.deployment();
    }

    @ParameterizedTest
    @EnumSource(JmsProtocol.class)
    void theBrokerDropsCopiesWithTheSameDuplicateId(JmsProtocol protocol) throws Exception {
        String customer = "c-dupid-" + protocol + "-" + UUID.randomUUID();
        String duplicateId = UUID.randomUUID().toString();
        try (JMSContext jms = protocol.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            for (int i = 0; i < 3; i++) {
                jms.createProducer().setProperty("_AMQ_DUPL_ID", duplicateId)
                        .send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 1));
            }
        }

        assertOneOrderOf(customer);
    }

    @Test
    void theBrokerDropsStompCopiesWithTheSameDuplicateId() throws Exception {
        String customer = "c-dupid-stomp-" + UUID.randomUUID();
        String duplicateId = UUID.randomUUID().toString();
        try (StompClient stomp = new StompClient(TestStack.BROKER_SUBMITTER)) {
            for (int i = 0; i < 3; i++) {
                stomp.send("orders", Map.of("_AMQ_DUPL_ID", duplicateId), OrdersApi.order(customer, "A-1", 1));
            }
        }

        assertOneOrderOf(customer);
    }

    @Test
    void copiesSentConcurrentlyOnSeparateConnectionsMakeOneOrder() throws Exception {
        String customer = "c-dupid-race-" + UUID.randomUUID();
        String duplicateId = UUID.randomUUID().toString();
        sendConcurrently(COPIES, () -> {
            try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
                jms.createProducer().setProperty("_AMQ_DUPL_ID", duplicateId)
                        .send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 1));
            }
            return null;
        });

        assertOneOrderOf(customer);
    }

    /**
     * The application keeps a message's duplicate id as its key too (the broker's check lets racing
     * copies through, seen once): a later message naming that key for another order is refused.
     */
    @Test
    void theDuplicateIdIsAlsoKeptAsTheOrdersKey() throws Exception {
        String customer = "c-dupid-key-" + UUID.randomUUID();
        String duplicateId = UUID.randomUUID().toString();
        String marker = "m-dupid-key-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            jms.createProducer().setProperty("_AMQ_DUPL_ID", duplicateId)
                    .send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 1));
            TestStack.awaitOrderOf(customer, Duration.ofSeconds(30));
            jms.createProducer().setProperty("idempotencyKey", "_AMQ_DUPL_ID:" + duplicateId).setProperty("marker", marker)
                    .send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 5));
        }

        var dead = DeadLetterQueue.await(marker);

        assertEquals("idempotencyKey '_AMQ_DUPL_ID:" + duplicateId + "' was already used for a different order",
                dead.getStringProperty("dlqReason"));
        assertOneOrderOf(customer);
    }

    @Test
    void copiesWithOneIdempotencyKeySentConcurrentlyMakeOneOrderEvenLater() throws Exception {
        String customer = "c-key-race-" + UUID.randomUUID();
        String key = "erp-" + UUID.randomUUID();
        Callable<Void> send = () -> {
            try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
                jms.createProducer().setProperty("idempotencyKey", key)
                        .send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 1));
            }
            return null;
        };
        sendConcurrently(COPIES, send);
        assertOneOrderOf(customer);

        send.call(); // a resend long after the first was processed

        assertOneOrderOf(customer);
    }

    @Test
    void anIdempotencyKeyReusedForAnotherOrderIsDeadLetteredAndKeysArePerBrokerUser() throws Exception {
        String customer = "c-key-reuse-" + UUID.randomUUID();
        String key = "erp-" + UUID.randomUUID();
        String marker = "m-key-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            jms.createProducer().setProperty("idempotencyKey", key)
                    .send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 1));
            TestStack.awaitOrderOf(customer, Duration.ofSeconds(30));
            jms.createProducer().setProperty("idempotencyKey", key).setProperty("marker", marker)
                    .send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 2));
        }
        String otherCustomer = "c-key-other-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.OTHER_BROKER_SUBMITTER).createContext()) {
            jms.createProducer().setProperty("idempotencyKey", key)
                    .send(jms.createQueue("orders"), OrdersApi.order(otherCustomer, "A-1", 1));
        }

        var dead = DeadLetterQueue.await(marker);

        assertEquals("idempotencyKey '" + key + "' was already used for a different order", dead.getStringProperty("dlqReason"));
        assertOneOrderOf(customer);
        assertOneOrderOf(otherCustomer);
    }

    static void sendConcurrently(int copies, Callable<Void> send) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(copies);
        try {
            List<Future<Void>> sent = new ArrayList<>();
            for (int i = 0; i < copies; i++) {
                sent.add(pool.submit(send));
            }
            for (Future<Void> f : sent) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One order of the customer once every copy sent has been consumed: the order queue holds no message
     * to deliver or in delivery (only scheduled ones, such as delayed dispatch hints), so a duplicate would
     * have made its second order by then. The queue is read through the admin API (Artemis management).
     */
    void assertOneOrderOf(String customer) {
        TestStack.awaitOrderOf(customer, Duration.ofSeconds(30));
        Poll.until("every copy on the order queue to be consumed", Duration.ofSeconds(30), Duration.ofMillis(200),
                this::orderQueue, queue -> queue.get("messageCount").asLong() - queue.get("scheduledCount").asLong() <= 0);
        assertEquals(1, TestStack.scalar("SELECT count(*) FROM customer_order WHERE customer_id = ?", customer), customer);
    }

    private JsonNode orderQueue() {
        for (JsonNode queue : Http.get(URI.create(base.toString()).resolve("api/admin/queues"), VIEWER).json()) {
            if (queue.get("name").asText().equals("orders")) {
                return queue;
            }
        }
        throw new AssertionError("no order queue among the queues");
    }
}
