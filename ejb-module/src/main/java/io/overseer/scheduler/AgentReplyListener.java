package io.overseer.scheduler;

import io.overseer.agent.AgentReply;
import io.overseer.messaging.DeadLetters;
import io.overseer.messaging.Destinations;
import io.overseer.platform.Json;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import jakarta.json.bind.JsonbException;

/** Feeds the agents' replies to the scheduler. Replies are idempotent: a repeated or stale one changes nothing. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = Destinations.AGENT_REPLIES),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Destinations.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")
})
public class AgentReplyListener implements MessageListener {

    @Inject
    Scheduler scheduler;
    @Inject
    DeadLetters deadLetters;

    @Override
    public void onMessage(Message message) {
        AgentReply reply;
        try {
            reply = Json.read(((TextMessage) message).getText(), AgentReply.class);
        } catch (JsonbException | ClassCastException e) {
            deadLetters.reject(message, Destinations.AGENT_REPLIES, "unreadable agent reply: " + e.getMessage());
            return;
        } catch (JMSException e) {
            throw new IllegalStateException("Could not read a message from " + Destinations.AGENT_REPLIES, e);
        }
        if (reply == null || reply.orderId() == null || reply.outcome() == null || reply.operation() == null) {
            deadLetters.reject(message, Destinations.AGENT_REPLIES, "agent reply without orderId, operation or outcome");
            return;
        }
        scheduler.onReply(reply);
    }
}
