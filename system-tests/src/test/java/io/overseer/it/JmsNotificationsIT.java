package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.support.Http;
import io.overseer.support.JmsProtocol;
import io.overseer.support.Notification;
import io.overseer.support.OrdersApi;
import io.overseer.support.TestStack;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Status notifications beyond the happy path: failure and compensation, REST submitters' reply queues,
 * reply-tos that name internal destinations, and a submitter that went away.
 */
class JmsNotificationsIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aRefusedStepIsReportedAsCompensatingThenEachUndoThenCompensated() {
        simulator.fault("arrange-shipping", "fatal", 1.0, 0);

        List<Notification> notifications = submitAndListen("c-comp-" + UUID.randomUUID(), null);

        assertEquals(List.of("received", "step-completed", "step-completed", "compensating", "step-compensated",
                "step-compensated", "compensated"), Notification.events(notifications), notifications.toString());
        assertTrue(notifications.get(3).body().path("reason").asText().contains("arrange-shipping"), notifications.toString());
        assertEquals(List.of("charge-payment", "reserve-inventory"),
                notifications.subList(4, 6).stream().map(n -> n.body().path("step").asText()).toList());
        assertEquals("Compensated", api.get(notifications.get(0).orderId()).get("processState").asText());
        io.overseer.support.Poll.until("the outbox emptied once the broker had every notification", WAIT,
                () -> outboxRows(notifications.get(0).orderId()) == 0);
    }

    /**
     * A notification whose transition committed but whose send was lost (a crash right after the commit)
     * stays in the outbox and is sent by the relay, then forgotten. The row is written here as a crash
     * would leave it: committed, attempted long ago, never confirmed.
     */
    @Test
    void aNotificationLeftInTheOutboxIsSentAgainThenForgotten() throws Exception {
        String replyQueue = "overseer.reply." + TestStack.BROKER_VIEWER.name() + ".outbox-" + UUID.randomUUID();
        String orderId = UUID.randomUUID().toString(); // an order id is 36 characters
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_VIEWER).createContext()) {
            JMSConsumer consumer = jms.createConsumer(jms.createQueue(replyQueue));
            try (var db = TestStack.db(); var insert = db.prepareStatement("INSERT INTO notification_outbox"
                    + " (id, order_id, destination, topic, correlation_id, event, body, created_at, attempted_at)"
                    + " VALUES (nextval('notification_outbox_seq'), ?, ?, FALSE, 'corr-crashed', 'processed', ?,"
                    + " now() - interval '5 minutes', now() - interval '5 minutes')")) {
                insert.setString(1, orderId);
                insert.setString(2, replyQueue);
                insert.setString(3, "{\"orderId\":\"" + orderId + "\",\"event\":\"processed\"}");
                insert.executeUpdate();
            }

            TextMessage message = (TextMessage) consumer.receive(WAIT.toMillis());

            assertTrue(message != null, "the relay sent the notification the crash left behind");
            assertEquals("corr-crashed", message.getJMSCorrelationID());
            assertEquals(orderId, message.getStringProperty("orderId"));
            assertTrue(message.getText().contains("processed"), message.getText());
        }
        io.overseer.support.Poll.until("the delivered row forgotten", WAIT, () -> outboxRows(orderId) == 0);
    }

    private static int outboxRows(String orderId) {
        try (var db = TestStack.db();
             var count = db.prepareStatement("SELECT count(*) FROM notification_outbox WHERE order_id = ?")) {
            count.setString(1, orderId);
            try (var rows = count.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anOrderStoppedInErrorIsReportedFailedWithTheReason() {
        simulator.fault("charge-payment", "fatal", 1.0, 0);

        List<Notification> notifications = submitAndListen("c-failed-" + UUID.randomUUID(), "single-charge");

        assertEquals(List.of("received", "failed"), Notification.events(notifications), notifications.toString());
        assertEquals("Error", notifications.get(1).body().path("processState").asText());
        assertTrue(notifications.get(1).body().path("reason").asText().contains("422"), notifications.toString());
    }

    @Test
    void aRestSubmitterHearsOnItsReplyQueueCorrelatedByTheOrderId() {
        String replyQueue = "overseer.reply." + TestStack.CLIENT.name() + ".rest-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_CLIENT).createContext()) {
            JMSConsumer consumer = jms.createConsumer(jms.createQueue(replyQueue));
            Http.Reply reply = api.submitRaw("application/json", "{\"customerId\":\"c-rest-reply\",\"items\":"
                    + "[{\"sku\":\"A-1\",\"quantity\":1}],\"replyTo\":\"" + replyQueue + "\"}");
            assertEquals(202, reply.status(), reply.body());
            String orderId = reply.json().get("orderId").asText();

            List<Notification> notifications = Notification.untilFinal(consumer, WAIT);

            assertEquals(JmsProtocolsIT.PROCESSED, Notification.events(notifications), notifications.toString());
            JmsProtocolsIT.assertAllAbout(orderId, orderId, notifications);
        }
    }

    @Test
    void aRestReplyToNamingAnInternalDestinationIsRefusedAndWritesNothing() {
        long before = TestStack.countOrders();
        for (String replyTo : List.of("agent.requests", "orders", "DLQ", "activemq.management", "overseer.reply.#")) {
            Http.Reply reply = api.submitRaw("application/json", "{\"customerId\":\"c-bad-reply\",\"items\":"
                    + "[{\"sku\":\"A-1\",\"quantity\":1}],\"replyTo\":\"" + replyTo + "\"}");

            assertEquals(400, reply.status(), replyTo + ": " + reply.body());
            assertTrue(reply.body().contains("replyTo"), reply.body());
        }
        // Another user's reply queue (issue 16): the HTTP user "client" may name overseer.reply.client.… only.
        Http.Reply others = api.submitRaw("application/json", "{\"customerId\":\"c-bad-reply\",\"items\":"
                + "[{\"sku\":\"A-1\",\"quantity\":1}],\"replyTo\":\"overseer.reply." + TestStack.BROKER_VIEWER.name()
                + ".rest\"}");
        assertEquals(400, others.status(), others.body());
        assertTrue(others.body().contains("overseer.reply." + TestStack.CLIENT.name() + ".…"), others.body());
        assertEquals(before, TestStack.countOrders());
    }

    @Test
    void aJmsReplyToNamingAnInternalDestinationIsDeadLettered() throws Exception {
        long before = TestStack.countOrders();
        String marker = "m-reply-" + UUID.randomUUID();
        String markerProperty = "m-reply-property-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            jms.createProducer().setProperty("marker", marker).setJMSReplyTo(jms.createQueue("agent.requests"))
                    .send(jms.createQueue("orders"), OrdersApi.order("c-" + marker, "A-1", 1));
            jms.createProducer().setProperty("marker", markerProperty).setProperty("overseerReplyTo", "queue://agent.replies")
                    .send(jms.createQueue("orders"), OrdersApi.order("c-" + markerProperty, "A-1", 1));
        }

        TextMessage dead = DeadLetterQueue.await(marker);
        TextMessage deadProperty = DeadLetterQueue.await(markerProperty);

        assertTrue(dead.getStringProperty("dlqReason").contains("internal destination"), dead.getStringProperty("dlqReason"));
        assertEquals(TestStack.BROKER_SUBMITTER.name(), dead.getStringProperty("dlqOriginalSender"),
                "the copy names the original's sender, not the application that dead-lettered it");
        assertTrue(dead.getStringProperty("dlqOriginalMessageId").startsWith("ID:"), dead.getStringProperty("dlqOriginalMessageId"));
        assertTrue(deadProperty.getStringProperty("dlqReason").contains("internal destination"),
                deadProperty.getStringProperty("dlqReason"));
        assertEquals(before, TestStack.countOrders());
    }

    @Test
    void aSubmitterWhoseTemporaryQueueIsGoneDoesNotHoldUpItsOrder() throws Exception {
        String customer = "c-gone-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER)
                .createContext(JMSContext.SESSION_TRANSACTED)) {
            TemporaryQueue replies = jms.createTemporaryQueue();
            jms.createProducer().setJMSReplyTo(replies).send(jms.createQueue("orders"), OrdersApi.order(customer, "A-1", 1));
            // Gone before the order can be read: the order is delivered at the commit. Deleted by the connection's
            // close after a plain send, it raced the server, which read the order first on a warm server (seen
            // once the tier shared one server: the reply-to was recorded while the queue still existed).
            replies.delete();
            jms.commit();
        }

        String orderId = TestStack.awaitOrderOf(customer, Duration.ofSeconds(30));

        assertEquals("Processed", api.awaitState(orderId, WAIT, "Processed").get("processState").asText());
        assertEquals(0, TestStack.scalar("SELECT count(*) FROM order_reply_to WHERE order_id = ?", orderId),
                "a temporary queue gone before the order was read takes no notifications: nobody may create"
                        + " one of its name later to read them");
    }

    /**
     * Security issue 16, finding 5: a submitter names as its reply-to a queue another submitter reads — that
     * one's named reply queue, or its temporary queue (whose name it learnt, and which it claims as its own
     * temporary queue). Both orders are dead-lettered with the reason, nothing is written, and the other
     * submitter hears nothing.
     */
    @Test
    void aSubmitterCannotDirectNotificationsToAQueueAnotherSubmitterReads() throws Exception {
        long before = TestStack.countOrders();
        String named = "m-others-named-" + UUID.randomUUID();
        String temporary = "m-others-temporary-" + UUID.randomUUID();
        String othersQueue = "overseer.reply." + TestStack.OTHER_BROKER_SUBMITTER.name() + ".erp-" + UUID.randomUUID();
        try (JMSContext victim = JmsProtocol.CORE.factory(TestStack.OTHER_BROKER_SUBMITTER).createContext();
             JMSContext attacker = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            JMSConsumer ownNamed = victim.createConsumer(victim.createQueue(othersQueue));
            TemporaryQueue ownTemporary = victim.createTemporaryQueue();
            JMSConsumer ownTemporaryConsumer = victim.createConsumer(ownTemporary);

            attacker.createProducer().setProperty("marker", named).setJMSReplyTo(attacker.createQueue(othersQueue))
                    .send(attacker.createQueue("orders"), OrdersApi.order("c-" + named, "A-1", 1));
            attacker.createProducer().setProperty("marker", temporary)
                    .setJMSReplyTo(org.apache.activemq.artemis.jms.client.ActiveMQDestination
                            .createTemporaryQueue(ownTemporary.getQueueName()))
                    .send(attacker.createQueue("orders"), OrdersApi.order("c-" + temporary, "A-1", 1));

            String namedReason = DeadLetterQueue.await(named).getStringProperty("dlqReason");
            String temporaryReason = DeadLetterQueue.await(temporary).getStringProperty("dlqReason");
            assertTrue(namedReason.contains("overseer.reply." + TestStack.BROKER_SUBMITTER.name() + ".…"), namedReason);
            assertTrue(temporaryReason.contains("another broker user"), temporaryReason);
            assertEquals(before, TestStack.countOrders());
            assertEquals(null, ownNamed.receive(500), "nothing reached the other submitter's named queue");
            assertEquals(null, ownTemporaryConsumer.receiveNoWait(), "nor its temporary queue");
        }
    }

    private List<Notification> submitAndListen(String customer, String workflow) {
        String correlationId = "corr-" + UUID.randomUUID();
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            TemporaryQueue replies = jms.createTemporaryQueue();
            JMSConsumer consumer = jms.createConsumer(replies);
            String body = workflow == null ? OrdersApi.order(customer, "A-1", 1) : OrdersApi.order(customer, workflow);
            jms.createProducer().setJMSReplyTo(replies).setJMSCorrelationID(correlationId)
                    .send(jms.createQueue("orders"), body);
            List<Notification> notifications = Notification.untilFinal(consumer, WAIT);
            notifications.forEach(n -> assertEquals(correlationId, n.correlationId(), n.toString()));
            return notifications;
        }
    }
}
