package io.overseer.submission;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.overseer.platform.TraceParent;
import io.overseer.platform.Tracing;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.messaging.DeadLetters;
import io.overseer.messaging.Destinations;
import io.overseer.messaging.OrderQueueMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.util.ArrayList;
import java.util.List;

/**
 * Submission's share of the order queue (its selector, {@link OrderQueueMessage#SUBMISSION_SELECTOR}:
 * whatever is not the scheduler's): new orders from legacy clients over any protocol the broker speaks
 * (see {@link OrderMessages}), stored and announced with a dispatch hint in one transaction
 * ({@link OrderSubmission#accept}), or many orders in one message ({@link OrderBatchMessages}), stored
 * together and each refused alone ({@link OrderSubmission#submitAll}) — the way {@code POST /api/orders} reaches the scheduler, whose
 * listener claims the order when the hint arrives. A message that can never be processed (a malformed
 * or invalid order, an unknown {@value Destinations#MESSAGE_TYPE}) goes to the dead-letter queue with the
 * reason, at once. A new order that fails to be stored is delivered again for as long as the database
 * is out, and dead-lettered with the failure once it has failed five times for another reason
 * ({@link DeadLetters#retryOrReject}).
 *
 * <p>No transaction around the delivery: the message is acknowledged when onMessage returns, after the
 * database commit. An order redelivered after a crash between the two is not stored twice: its key (the
 * sender's idempotencyKey, else the broker's duplicate id, else its message id) is already taken.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = Destinations.ORDERS),
        @ActivationConfigProperty(propertyName = "messageSelector", propertyValue = OrderQueueMessage.SUBMISSION_SELECTOR),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Destinations.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "8")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class NewOrderListener implements MessageListener {

    @Inject
    OrderSubmission submission;
    @Inject
    DeadLetters deadLetters;
    @Inject
    Tracing tracing;

    static final String RECEIVE_SPAN = "receive order";

    @Override
    public void onMessage(Message message) {
        try {
            OrderQueueMessage type;
            try {
                type = OrderQueueMessage.of(message.getStringProperty(Destinations.MESSAGE_TYPE));
            } catch (IllegalArgumentException e) {
                deadLetters.reject(message, Destinations.ORDERS, "unknown " + Destinations.MESSAGE_TYPE);
                return;
            }
            if (type != OrderQueueMessage.SUBMIT) {
                // A selector cannot fold case: a spelling of the scheduler's types that it does not list.
                deadLetters.reject(message, Destinations.ORDERS, Destinations.MESSAGE_TYPE + " '"
                        + message.getStringProperty(Destinations.MESSAGE_TYPE) + "': write " + type.name()
                        + " or " + type.name().toLowerCase(java.util.Locale.ROOT));
                return;
            }
            submit(message);
        } catch (RuntimeException e) {
            deadLetters.retryOrReject(message, Destinations.ORDERS, e);
        } catch (JMSException e) {
            throw new IllegalStateException("Could not read a message from " + Destinations.ORDERS, e);
        }
    }

    /**
     * The order's trace begins with this delivery: a child of the sender's context when the message carries
     * one ({@code traceparent} and {@code tracestate} string properties, W3C Trace Context; docs/tracing.md),
     * else a new trace. A value that is not a valid one is ignored, never a reason to refuse the order.
     */
    private void submit(Message message) throws JMSException {
        Span span = tracing.received(RECEIVE_SPAN, property(message, TraceParent.TRACEPARENT),
                property(message, TraceParent.TRACESTATE));
        try (Scope ignored = span.makeCurrent()) {
            OrderMessage order = OrderMessages.read(message);
            if (OrderBatchMessages.isBatch(order.json())) {
                submitAll(message, order);
            } else {
                submission.accept(order);
            }
        } catch (InvalidOrderException e) {
            Tracing.failed(span, e.getMessage());
            deadLetters.reject(message, Destinations.ORDERS, e.getMessage());
        } catch (BrokerUnavailableException e) {
            // Whose temporary queue the reply-to is could not be asked: delivered again, like any failure.
            throw new IllegalStateException(e.getMessage(), e);
        } finally {
            span.end();
        }
    }

    /**
     * A message of many orders: those that can be stored, in one transaction; then each refused one to the
     * DLQ alone, with its reason. After the commit, so that a database outage, which rolls the batch back
     * for the message to come again, dead-letters nothing twice; a crash between the two sends the refused
     * ones again when the message comes again (their orders' keys make the stored ones replays).
     */
    private void submitAll(Message message, OrderMessage order) throws InvalidOrderException, BrokerUnavailableException {
        OrderBatchMessages.Batch batch = OrderBatchMessages.read(order);
        List<BatchResult> results = new ArrayList<>(batch.unreadable());
        if (!batch.orders().isEmpty()) {
            results.addAll(submission.submitAll(batch.orders(), BatchSource.jms(order.sender(), order.replyTo())));
        }
        for (BatchResult result : results) {
            if (!result.accepted()) {
                deadLetters.rejectItem(message, Destinations.ORDERS, result.index(), batch.json().get(result.index()),
                        result.refusal().reason());
            }
        }
    }

    /** A string property, or null if absent or not readable as one (a sender's mistake, not worth a refusal). */
    private String property(Message message, String name) {
        if (!tracing.on()) {
            return null;
        }
        try {
            return message.getStringProperty(name);
        } catch (JMSException | RuntimeException e) {
            return null;
        }
    }
}
