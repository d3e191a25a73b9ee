package io.overseer.it;

import com.fasterxml.jackson.databind.JsonNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.support.JmsProtocol;
import io.overseer.support.Notification;
import io.overseer.support.OrdersApi;
import io.overseer.support.StompClient;
import io.overseer.support.TestStack;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Legacy clients on every protocol the broker speaks submit the HTTP body as a message on the order
 * queue, each with its real client library and a submitter's credentials, and hear about their order on
 * their own reply queue: received, each step completed, processed — correlated by their correlation id.
 */
class JmsProtocolsIT extends DeployedWarIT {

    static final Duration WAIT = Duration.ofSeconds(60);
    static final List<String> PROCESSED = List.of("received", "step-completed", "step-completed", "step-completed",
            "processed");

    @ParameterizedTest
    @EnumSource(JmsProtocol.class)
    void aJmsClientSubmitsAndHearsEveryStatusOnItsTemporaryQueue(JmsProtocol protocol) throws Exception {
        String customer = "c-" + protocol + "-" + UUID.randomUUID();
        String correlationId = "corr-" + UUID.randomUUID();
        List<Notification> notifications;
        try (JMSContext jms = protocol.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            TemporaryQueue replies = jms.createTemporaryQueue();
            JMSConsumer consumer = jms.createConsumer(replies);
            jms.createProducer().setJMSReplyTo(replies).setJMSCorrelationID(correlationId)
                    .send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 2));

            notifications = Notification.untilFinal(consumer, WAIT);
        }

        assertEquals(PROCESSED, Notification.events(notifications), notifications.toString());
        String orderId = TestStack.awaitOrderOf(customer, Duration.ofSeconds(5));
        assertAllAbout(orderId, correlationId, notifications);
        assertEquals(List.of("reserve-inventory", "charge-payment", "arrange-shipping"),
                notifications.subList(1, 4).stream().map(n -> n.body().path("step").asText()).toList());
        assertEquals("Processed", notifications.get(4).body().path("processState").asText());
        assertEquals("Processed", api.get(orderId).get("processState").asText());
        assertClaimedOnArrival(orderId);
    }

    /**
     * The order was claimed in the transaction that consumed its message (decision 0026), not on a dispatch
     * hint and not by the stranded-order poller (every JMS order once waited 10-15 s for it: the claim did
     * not see the row just stored).
     */
    private void assertClaimedOnArrival(String orderId) {
        JsonNode stored = null;
        JsonNode claim = null;
        for (JsonNode entry : api.history(orderId)) {
            if (entry.path("step").isNull() && "Pending".equals(entry.path("to").asText()) && stored == null) {
                stored = entry;
            }
            if (entry.path("step").isNull() && "Processing".equals(entry.path("to").asText()) && claim == null) {
                claim = entry;
            }
        }
        assertEquals("claimed at submission", claim == null ? null : claim.path("reason").asText(), "history: " + api.history(orderId));
        assertNotNull(stored, "history: " + api.history(orderId));
    }

    /** STOMP's own reply-to header, and the overseerReplyTo property (for clients that cannot set reply-to). */
    @ParameterizedTest
    @ValueSource(strings = {"reply-to", "overseerReplyTo"})
    void aStompClientSubmitsAndHearsEveryStatusOnItsReplyQueue(String replyHeader) throws Exception {
        String customer = "c-stomp-" + UUID.randomUUID();
        String correlationId = "corr-" + UUID.randomUUID();
        String replyQueue = "overseer.reply." + TestStack.BROKER_SUBMITTER.name() + ".stomp-" + UUID.randomUUID();
        List<Notification> notifications;
        try (StompClient stomp = new StompClient(TestStack.BROKER_SUBMITTER)) {
            BlockingQueue<StompClient.Frame> frames = stomp.subscribeQueue(replyQueue);
            stomp.send("orders", Map.of(replyHeader, replyQueue, "correlation-id", correlationId),
                    OrdersApi.order(customer, "A-1", 2));

            notifications = StompClient.untilFinal(frames, WAIT);
        }

        assertEquals(PROCESSED, Notification.events(notifications), notifications.toString());
        String orderId = TestStack.awaitOrderOf(customer, Duration.ofSeconds(5));
        assertAllAbout(orderId, correlationId, notifications);
        assertEquals("Processed", api.get(orderId).get("processState").asText());
    }

    @Test
    void withoutACorrelationIdNotificationsCarryTheMessageId() {
        String customer = "c-msgid-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            TemporaryQueue replies = jms.createTemporaryQueue();
            JMSConsumer consumer = jms.createConsumer(replies);
            Message order = jms.createTextMessage(OrdersApi.order(customer, "A-1", 1));
            order.setJMSReplyTo(replies);
            jms.createProducer().send(jms.createQueue("orders"), order);

            List<Notification> notifications = Notification.untilFinal(consumer, WAIT);

            assertEquals(PROCESSED, Notification.events(notifications));
            assertEquals(order.getJMSMessageID(), notifications.get(0).correlationId());
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @EnumSource(JmsProtocol.class)
    void aMalformedOrderGoesToTheDeadLetterQueueWithItsReason(JmsProtocol protocol) throws Exception {
        String marker = "m-" + protocol + "-" + UUID.randomUUID();
        long before = TestStack.countOrders();
        try (JMSContext jms = protocol.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            jms.createProducer().setProperty("marker", marker)
                    .send(jms.createQueue("orders"), "{\"customerId\": \"" + marker + "\", \"items\": [");
        }

        TextMessage dead = DeadLetterQueue.await(marker);

        assertTrue(dead.getStringProperty("dlqReason").startsWith("malformed order JSON"), dead.getStringProperty("dlqReason"));
        assertEquals("orders", dead.getStringProperty("dlqOriginalDestination"));
        assertTrue(dead.getText().contains(marker));
        assertEquals(before, TestStack.countOrders());
    }

    @Test
    void aMalformedStompOrderGoesToTheDeadLetterQueueWithItsReason() throws Exception {
        String marker = "m-stomp-" + UUID.randomUUID();
        try (StompClient stomp = new StompClient(TestStack.BROKER_SUBMITTER)) {
            stomp.send("orders", Map.of("marker", marker), "not json " + marker);
        }

        Message dead = DeadLetterQueue.awaitAny(marker);

        assertNotNull(dead);
        assertTrue(dead.getStringProperty("dlqReason").startsWith("malformed order JSON"), dead.getStringProperty("dlqReason"));
    }

    /** Good and bad orders interleaved: every good one becomes an order, every bad one is dead-lettered with its reason. */
    @Test
    void aMixedBatchLosesNothing() throws Exception {
        String batch = "c-batch-" + UUID.randomUUID();
        Map<String, String> reasons = new java.util.LinkedHashMap<>();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            var orders = jms.createQueue("orders");
            for (int i = 0; i < 10; i++) {
                jms.createProducer().send(orders, OrdersApi.order(batch + "-" + i, "A-1", 1));
                String marker = batch + "-bad-" + i;
                Message bad = switch (i % 5) {
                    case 0 -> jms.createTextMessage("{\"customerId\": [");
                    case 1 -> jms.createTextMessage("{\"customerId\":\"x\",\"items\":[{\"sku\":\"A 1\",\"quantity\":0}]}");
                    case 2 -> jms.createMapMessage();
                    case 3 -> {
                        var bytes = jms.createBytesMessage();
                        bytes.writeBytes(new byte[] {(byte) 0xC3, (byte) 0x28});
                        yield bytes;
                    }
                    default -> jms.createTextMessage(OrdersApi.order(batch + "-wf", "no-such-workflow"));
                };
                bad.setStringProperty("marker", marker);
                jms.createProducer().send(orders, bad);
                reasons.put(marker, switch (i % 5) {
                    case 0 -> "malformed order JSON";
                    case 1 -> "invalid order";
                    case 2 -> "an order must be JSON";
                    case 3 -> "order body is not UTF-8";
                    default -> "unknown workflow";
                });
            }
        }

        for (int i = 0; i < 10; i++) {
            TestStack.awaitOrderOf(batch + "-" + i, Duration.ofSeconds(60));
        }
        for (var expected : reasons.entrySet()) {
            Message dead = DeadLetterQueue.awaitAny(expected.getKey());
            assertTrue(dead.getStringProperty("dlqReason").startsWith(expected.getValue()),
                    expected + " got " + dead.getStringProperty("dlqReason"));
        }
        assertEquals(0, TestStack.scalar("SELECT count(*) FROM customer_order WHERE customer_id = ?", batch + "-wf"));
    }

    static void assertAllAbout(String orderId, String correlationId, List<Notification> notifications) {
        for (Notification n : notifications) {
            assertEquals(correlationId, n.correlationId(), n.toString());
            assertEquals(orderId, n.orderId(), n.toString());
            assertEquals(n.event(), n.eventProperty(), n.toString());
            assertTrue(n.body().hasNonNull("at") && n.body().hasNonNull("processState"), n.toString());
        }
    }

    /**
     * The sender is the broker's word whatever the protocol (issue 16): an AMQP message reaches the
     * application without Artemis's validated user, and with any property its client chose, so the broker
     * policy (broker-policy module) writes it. A client that claims another user's name still has its key
     * scoped to its own.
     */
    @ParameterizedTest
    @EnumSource(JmsProtocol.class)
    void aSenderCannotClaimAnotherUsersIdentity(JmsProtocol protocol) {
        String customer = "c-claim-" + protocol + "-" + UUID.randomUUID();
        String key = "k-claim-" + UUID.randomUUID();
        try (JMSContext jms = protocol.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            jms.createProducer().setProperty("_AMQ_VALIDATED_USER", TestStack.OTHER_BROKER_SUBMITTER.name())
                    .setProperty("idempotencyKey", key).send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 1));
        }

        TestStack.awaitOrderOf(customer, Duration.ofSeconds(30));
        assertEquals(1, TestStack.scalar("SELECT count(*) FROM submission_key WHERE idem_key = '" + key
                + "' AND scope = ?", "jms:" + TestStack.BROKER_SUBMITTER.name()), "the key is the real sender's");
    }

    /** The broker refuses an order message over 288 KiB before storing it (issue 16): the sender gets the error. */
    @ParameterizedTest
    @EnumSource(JmsProtocol.class)
    void theBrokerRefusesAnOversizedOrderMessage(JmsProtocol protocol) {
        String big = "x".repeat(400 * 1024);
        long before = TestStack.countOrders();
        try (JMSContext jms = protocol.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            org.junit.jupiter.api.Assertions.assertThrows(jakarta.jms.JMSRuntimeException.class,
                    () -> jms.createProducer().setDeliveryMode(jakarta.jms.DeliveryMode.PERSISTENT)
                            .send(jms.createQueue("orders"), big));
        }
        assertEquals(before, TestStack.countOrders());
    }
}
