package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.overseer.launcher.BrokerUser;
import io.overseer.support.JmsProtocol;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
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

    @Test
    void aWrongPasswordIsRefused() {
        BrokerUser impostor = new BrokerUser(TestStack.BROKER_SUBMITTER.name(), "wrong", TestStack.BROKER_SUBMITTER.roles());
        assertThrows(JMSRuntimeException.class, () -> JmsProtocol.CORE.factory(impostor).createContext().close());
    }
}
