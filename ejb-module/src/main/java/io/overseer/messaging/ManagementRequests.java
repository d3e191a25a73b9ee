package io.overseer.messaging;

import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonValue;
import java.io.StringReader;

/**
 * Artemis's management message API spoken with plain Jakarta Messaging (no Artemis class in the
 * application): a text message to {@value #ADDRESS} names the resource ({@code queue.DLQ}) and an
 * attribute or an operation, its body is the JSON array of the operation's parameters; the broker
 * answers on the message's JMSReplyTo with {@value #SUCCEEDED} and, as the body, a JSON array holding
 * the result (or the failure's message). See Artemis's ManagementHelper and its manual's "Using
 * Management Message API". Calls are made one after the other on one temporary reply queue, which
 * lives as long as the context.
 */
final class ManagementRequests implements AutoCloseable {

    static final String ADDRESS = "activemq.management";
    static final String RESOURCE = "_AMQ_ResourceName";
    static final String ATTRIBUTE = "_AMQ_Attribute";
    static final String OPERATION = "_AMQ_OperationName";
    static final String SUCCEEDED = "_AMQ_OperationSucceeded";

    private final JMSContext jms;
    private final Queue management;
    private final TemporaryQueue replies;
    private final JMSConsumer consumer;
    private final long replyTimeoutMillis;

    ManagementRequests(JMSContext jms, long replyTimeoutMillis) {
        this.jms = jms;
        this.management = jms.createQueue(ADDRESS);
        this.replies = jms.createTemporaryQueue();
        this.consumer = jms.createConsumer(replies);
        this.replyTimeoutMillis = replyTimeoutMillis;
        jms.start();
    }

    /** The value of an attribute of a resource, e.g. ("queue.DLQ", "messageCount"). */
    JsonValue attribute(String resource, String attribute) {
        TextMessage request = jms.createTextMessage(null);
        return call(request, resource, ATTRIBUTE, attribute);
    }

    /** Invokes an operation of a resource, e.g. ("queue.DLQ", "removeMessage", 42L); its result, or NULL. */
    JsonValue invoke(String resource, String operation, Object... parameters) {
        JsonArrayBuilder body = Json.createArrayBuilder();
        for (Object parameter : parameters) {
            if (parameter instanceof Long number) {
                body.add(number);
            } else if (parameter instanceof Integer number) {
                body.add(number);
            } else if (parameter == null) {
                body.addNull();
            } else {
                body.add(parameter.toString());
            }
        }
        TextMessage request = jms.createTextMessage(body.build().toString());
        return call(request, resource, OPERATION, operation);
    }

    private JsonValue call(TextMessage request, String resource, String kind, String name) {
        try {
            request.setStringProperty(RESOURCE, resource);
            request.setStringProperty(kind, name);
            request.setJMSReplyTo(replies);
            // Sent persistent, so that the send blocks until the broker took it: a refusal (no "manage"
            // permission) is an exception here rather than a reply that never comes. The broker does not
            // store management messages either way.
            jms.createProducer().send(management, request);
            Message reply = consumer.receive(replyTimeoutMillis);
            if (reply == null) {
                throw new ManagementException("the broker did not answer " + resource + " " + name + " within "
                        + replyTimeoutMillis + " ms");
            }
            JsonArray results = parse(reply.getBody(String.class));
            JsonValue result = results.isEmpty() ? JsonValue.NULL : results.get(0);
            if (!reply.propertyExists(SUCCEEDED) || !reply.getBooleanProperty(SUCCEEDED)) {
                throw new ManagementException("the broker refused " + resource + " " + name + ": "
                        + (result instanceof jakarta.json.JsonString text ? text.getString() : result));
            }
            return result;
        } catch (JMSException e) {
            throw new ManagementException("could not read the broker's answer to " + resource + " " + name, e);
        }
    }

    /**
     * Whether the broker refused because the resource does not exist (ActiveMQMessageBundle's
     * cannotFindResource, AMQ229067), as opposed to a refused permission or a failed operation.
     */
    static boolean isUnknownResource(ManagementException refusal) {
        String message = refusal.getMessage();
        return message != null && (message.contains("AMQ229067") || message.contains("Cannot find resource"));
    }

    private static JsonArray parse(String body) {
        if (body == null) {
            return JsonValue.EMPTY_JSON_ARRAY;
        }
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readArray();
        }
    }

    @Override
    public void close() {
        consumer.close();
        try {
            replies.delete();
        } catch (JMSException | RuntimeException e) {
            // deleted with the connection's session anyway (the adapter deletes its temporary queues)
        }
    }

    /** The broker answered, but not with a result: it refused, or the answer could not be read. */
    static final class ManagementException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ManagementException(String message) {
            super(message);
        }

        ManagementException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
