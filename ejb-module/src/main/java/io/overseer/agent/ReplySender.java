package io.overseer.agent;

import io.overseer.messaging.Destinations;
import io.overseer.platform.Json;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;

/** Sends an agent's reply to the scheduler, correlated with the request's message id. */
@ApplicationScoped
public class ReplySender {

    @Inject
    @JMSConnectionFactory(Destinations.CONNECTION_FACTORY)
    JMSContext jms;

    public void send(AgentReply reply, String correlationId) {
        jms.createProducer()
                .setJMSCorrelationID(correlationId)
                .setProperty(Destinations.ORDER_ID, reply.orderId())
                .send(jms.createQueue(Destinations.AGENT_REPLIES), Json.write(reply));
    }
}
