package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.BrokerUser;
import io.overseer.support.JmsProtocol;
import io.overseer.support.TestStack;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import jakarta.jms.JMSRuntimeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The broker's role-based permissions (security-settings in server-config/artemis/broker.xml), checked
 * against the real broker with each protocol's client: a submitter may send orders and nothing else of
 * the application's; it can neither feed the agents nor read the order queue. Needs no application.
 */
class BrokerSecurityIT {

    @ParameterizedTest
    @EnumSource(JmsProtocol.class)
    void aSubmitterMaySendOrdersButNotToTheAgentsOrTheDeadLetterQueue(JmsProtocol protocol) {
        try (JMSContext jms = protocol.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            // A dispatch hint for an unknown order: accepted by the broker, ignored by the scheduler.
            jms.createProducer().setProperty("overseerType", "DISPATCH").setProperty("orderId", "no-such-order")
                    .send(jms.createQueue("orders"), "{}");

            for (String internal : new String[] {"agent.requests", "agent.replies", "DLQ"}) {
                assertThrows(JMSRuntimeException.class,
                        () -> jms.createProducer().send(jms.createQueue(internal), "{\"orderId\":\"forged\"}"), internal);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(JmsProtocol.class)
    void aSubmitterMayNotConsumeTheOrderQueueOrTheAgents(JmsProtocol protocol) {
        for (String internal : new String[] {"orders", "agent.requests", "agent.replies"}) {
            try (JMSContext jms = protocol.factory(TestStack.BROKER_SUBMITTER).createContext()) {
                assertThrows(JMSRuntimeException.class, () -> jms.createConsumer(jms.createQueue(internal)).receiveNoWait(),
                        internal);
            }
        }
    }

    @Test
    void anOperatorMayNeitherReadNorFeedTheAgents() {
        for (String internal : new String[] {"agent.requests", "agent.replies"}) {
            try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_OPERATOR).createContext()) {
                assertThrows(JMSRuntimeException.class,
                        () -> jms.createProducer().send(jms.createQueue(internal), "{\"orderId\":\"forged\"}"), internal);
            }
            try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_OPERATOR).createContext()) {
                assertThrows(JMSRuntimeException.class, () -> jms.createConsumer(jms.createQueue(internal)).receiveNoWait(),
                        internal);
            }
            try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_OPERATOR).createContext()) {
                // A browser is created lazily: the broker refuses when it is first read (a checked exception).
                assertThrows(jakarta.jms.JMSSecurityException.class,
                        () -> jms.createBrowser(jms.createQueue(internal)).getEnumeration().hasMoreElements(), internal);
            }
        }
    }

    @Test
    void aViewerMayNotSubmit() {
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_VIEWER).createContext()) {
            assertThrows(JMSRuntimeException.class, () -> jms.createProducer().send(jms.createQueue("orders"), "{}"));
        }
    }

    /**
     * The application manages by message only what the console needs (management-message-rbac): the counts
     * of its queues, the dead letters' list, and retry or remove of dead letters — not a purge, nor a
     * removal from a live queue, nor the broker itself. The operator keeps every operation.
     */
    @Test
    void theApplicationManagesDeadLettersAndReadsCountsButNothingElse() {
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_APPLICATION).createContext()) {
            for (String queue : new String[] {"orders", "agent.requests", "agent.replies", "DLQ", "ExpiryQueue"}) {
                assertTrue(manage(jms, "queue." + queue, ATTRIBUTE, "messageCount", null), queue);
            }
            assertTrue(manage(jms, "queue.DLQ", OPERATION, "browse", "[1,1]"));
            assertTrue(manage(jms, "queue.DLQ", OPERATION, "retryMessage", "[-1]"));
            assertTrue(manage(jms, "queue.DLQ", OPERATION, "removeMessage", "[-1]"));

            assertFalse(manage(jms, "queue.DLQ", OPERATION, "removeAllMessages", "[]"));
            assertFalse(manage(jms, "queue.orders", OPERATION, "removeMessage", "[-1]"));
            assertFalse(manage(jms, "queue.orders", OPERATION, "retryMessages", "[]"));
            assertFalse(manage(jms, "queue.agent.replies", OPERATION, "removeAllMessages", "[]"));
            assertFalse(manage(jms, "broker", ATTRIBUTE, "version", null));
        }
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_OPERATOR).createContext()) {
            assertTrue(manage(jms, "broker", ATTRIBUTE, "version", null));
            assertTrue(manage(jms, "queue.orders", OPERATION, "removeMessage", "[-1]"));
        }
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            assertThrows(JMSRuntimeException.class, () -> manage(jms, "queue.DLQ", ATTRIBUTE, "messageCount", null));
        }
    }

    private static final String ATTRIBUTE = "_AMQ_Attribute";
    private static final String OPERATION = "_AMQ_OperationName";

    /** Whether the broker carried out a management request (Artemis's management message API, in plain JMS). */
    private static boolean manage(JMSContext jms, String resource, String kind, String name, String parameters) {
        TemporaryQueue replies = jms.createTemporaryQueue();
        try (JMSConsumer consumer = jms.createConsumer(replies)) {
            TextMessage request = jms.createTextMessage(parameters);
            request.setStringProperty("_AMQ_ResourceName", resource);
            request.setStringProperty(kind, name);
            request.setJMSReplyTo(replies);
            jms.createProducer().send(jms.createQueue("activemq.management"), request);
            Message reply = consumer.receive(5000);
            assertNotNull(reply, "an answer to " + resource + " " + name);
            return reply.getBooleanProperty("_AMQ_OperationSucceeded");
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aWrongPasswordIsRefused() {
        BrokerUser impostor = new BrokerUser(TestStack.BROKER_SUBMITTER.name(), "wrong", TestStack.BROKER_SUBMITTER.roles());
        assertThrows(JMSRuntimeException.class, () -> JmsProtocol.CORE.factory(impostor).createContext().close());
    }

    /**
     * A client user cannot create queues without end (issue 16): the launcher caps each client user's queues
     * (32); the next one is refused by the broker, and closing the connection frees them again.
     */
    @Test
    void aClientUsersQueuesAreCapped() {
        BrokerUser submitter = TestStack.OTHER_BROKER_SUBMITTER;
        try (JMSContext jms = JmsProtocol.CORE.factory(submitter).createContext()) {
            int created = 0;
            JMSRuntimeException refused = null;
            for (int i = 0; i < 40 && refused == null; i++) {
                try {
                    jms.createTemporaryQueue();
                    created++;
                } catch (JMSRuntimeException e) {
                    refused = e;
                }
            }
            assertNotNull(refused, "the broker refused a queue after " + created);
            assertTrue(created <= 32, "at most 32 queues, created " + created);
            assertTrue(created >= 28, "the cap is the launcher's, not an earlier failure: created " + created
                    + " (" + refused + ")");
        }
        try (JMSContext again = JmsProtocol.CORE.factory(submitter).createContext()) {
            assertNotNull(again.createTemporaryQueue(), "a closed connection's temporary queues no longer count");
        }
    }

    /**
     * A reply queue nobody reads cannot fill the broker (issue 16): past 10 MiB its address drops what is
     * sent to it (address-full-policy DROP in broker.xml), and the sender is not held up.
     */
    @Test
    void aReplyQueueNobodyReadsKeepsAtMostTenMebibytes() throws JMSException {
        String queue = "overseer.reply." + TestStack.BROKER_SUBMITTER.name() + ".unread-" + java.util.UUID.randomUUID();
        // 90 KiB: under the broker's large-message size (100 KiB), like notifications, so held in the address
        byte[] body = new byte[90 * 1024];
        int sent = 160; // 14 MiB, sent as the application sends notifications (auto-creating the queue)
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_APPLICATION).createContext()) {
            jakarta.jms.Queue destination = jms.createQueue(queue);
            for (int i = 0; i < sent; i++) {
                jms.createProducer().send(destination, body);
            }
        }
        try (JMSContext jms = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            jakarta.jms.Queue destination = jms.createQueue(queue);
            int kept = 0;
            try (JMSConsumer drain = jms.createConsumer(destination)) { // counts, and empties the queue the test made
                while (drain.receive(1000) != null) {
                    kept++;
                }
            }
            long keptBytes = (long) kept * body.length;
            assertTrue(kept < sent && keptBytes <= 11L * 1024 * 1024 && keptBytes >= 8L * 1024 * 1024,
                    "about 10 MiB kept of 14 MiB sent: " + kept + " messages of 90 KiB");
        }
    }

    /**
     * A submitter's named reply queue is its own (issue 16, finding 5): once it exists, another submitter or
     * a viewer can neither read nor feed it; only the application sends to it.
     */
    @Test
    void anotherUserCannotReadOrFeedASubmittersReplyQueue() {
        String queue = "overseer.reply." + TestStack.BROKER_SUBMITTER.name() + ".mine-" + java.util.UUID.randomUUID();
        try (JMSContext owner = JmsProtocol.CORE.factory(TestStack.BROKER_SUBMITTER).createContext()) {
            JMSConsumer own = owner.createConsumer(owner.createQueue(queue)); // creates it
            assertThrows(JMSRuntimeException.class, () -> owner.createProducer().send(owner.createQueue(queue), "self"),
                    "not even its owner sends to it: notifications come from the application alone");
            for (BrokerUser other : java.util.List.of(TestStack.OTHER_BROKER_SUBMITTER, TestStack.BROKER_VIEWER)) {
                try (JMSContext jms = JmsProtocol.CORE.factory(other).createContext()) {
                    assertThrows(JMSRuntimeException.class,
                            () -> jms.createConsumer(jms.createQueue(queue)).receiveNoWait(), other.name() + " reads");
                }
                try (JMSContext jms = JmsProtocol.CORE.factory(other).createContext()) {
                    assertThrows(JMSRuntimeException.class,
                            () -> jms.createProducer().send(jms.createQueue(queue), "forged"), other.name() + " sends");
                }
            }
            try (JMSContext application = JmsProtocol.CORE.factory(TestStack.BROKER_APPLICATION).createContext()) {
                application.createProducer().send(application.createQueue(queue), "notification");
            }
            assertEquals("notification", own.receiveBody(String.class, 5000));
            own.close();
        }
    }
}
