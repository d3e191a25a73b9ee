package io.overseer.support;

import io.overseer.launcher.BrokerUser;
import jakarta.jms.ConnectionFactory;

/**
 * The Jakarta Messaging protocols a legacy client may speak to the broker, each through its own real
 * client library: Core (Artemis's client), AMQP 1.0 (Qpid JMS) and OpenWire (the ActiveMQ 5 "classic"
 * client). STOMP has no JMS client: see {@link StompClient}.
 */
public enum JmsProtocol {
    CORE {
        @Override
        public ConnectionFactory factory(BrokerUser user) {
            return new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(
                    "tcp://127.0.0.1:" + TestStack.brokerPort(), user.name(), user.password());
        }
    },
    AMQP {
        @Override
        public ConnectionFactory factory(BrokerUser user) {
            return new org.apache.qpid.jms.JmsConnectionFactory(user.name(), user.password(),
                    "amqp://127.0.0.1:" + TestStack.brokerPort());
        }
    },
    OPENWIRE {
        @Override
        public ConnectionFactory factory(BrokerUser user) {
            // Advisory topics are switched off on the broker (supportAdvisory=false); do not watch them.
            return new org.apache.activemq.ActiveMQConnectionFactory(user.name(), user.password(),
                    "tcp://127.0.0.1:" + TestStack.brokerPort() + "?jms.watchTopicAdvisories=false");
        }
    };

    public abstract ConnectionFactory factory(BrokerUser user);
}
