package io.overseer.agent;

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

/**
 * The Agent for the remote service: performs one attempt of a step, retrying transient faults until
 * the attempt's complete-by, and answers on the reply queue — unless the deadline passed, in which case
 * it says nothing, as the pattern asks: the supervisor will have the step tried again.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = Destinations.AGENT_REQUESTS),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Destinations.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "16")
})
public class RemoteServiceAgent implements MessageListener {

    @Inject
    AttemptRunner runner;
    @Inject
    ReplySender replies;
    @Inject
    DeadLetters deadLetters;

    @Override
    public void onMessage(Message message) {
        AgentRequest request;
        try {
            request = Json.read(((TextMessage) message).getText(), AgentRequest.class);
        } catch (JsonbException | ClassCastException e) {
            deadLetters.reject(message, Destinations.AGENT_REQUESTS, "unreadable agent request: " + e.getMessage());
            return;
        } catch (JMSException e) {
            throw new IllegalStateException("Could not read a message from " + Destinations.AGENT_REQUESTS, e);
        }
        if (request == null || request.orderId() == null || request.operation() == null || request.completeBy() == null) {
            deadLetters.reject(message, Destinations.AGENT_REQUESTS, "agent request without orderId, operation or completeBy");
            return;
        }
        runner.run(request).ifPresent(reply -> replies.send(reply, messageId(message)));
    }

    private static String messageId(Message message) {
        try {
            return message.getJMSMessageID();
        } catch (JMSException e) {
            return null;
        }
    }
}
