package io.overseer.agent;

import io.opentelemetry.api.trace.SpanKind;
import io.overseer.messaging.DeadLetters;
import io.overseer.messaging.Destinations;
import io.overseer.platform.Clocks;
import io.overseer.platform.DatabaseReachability;
import io.overseer.platform.TraceParent;
import io.overseer.platform.Tracing;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Agent for the remote services: takes a batch of attempts (one message; under light load a batch of
 * one), checks in one query which are still current unless the delivery itself shows it ({@link #needsFence}),
 * and runs those in parallel on the agent workers —
 * each retrying transient faults until its complete-by — answering each on the reply queue as soon as it
 * ends, unless its deadline passed, in which case it says nothing, as the pattern asks: the supervisor
 * will have the step tried again.
 *
 * <p>No transaction is held, neither around the delivery nor across the remote calls: the message is
 * acknowledged when onMessage returns, which is when every attempt of the batch ended, or when the
 * delivery's hold passed and a worker took each of them ({@link DeliveryHold}). Killed before that, the
 * broker redelivers the batch: attempts already answered are fenced (their epoch moved on), the others are
 * run again under the same idempotency keys. Killed after it, a call still running expires at its complete-by
 * and the supervisor retries it.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = Destinations.AGENT_REQUESTS),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Destinations.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "16")
})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RemoteServiceAgent implements MessageListener {

    private static final Logger LOG = Logger.getLogger(RemoteServiceAgent.class.getName());
    /** How long past the last deadline of a batch the delivery waits for its attempts to notice it. */
    private static final Duration GRACE = Duration.ofSeconds(5);
    /** A request delivered this soon after its send, for the first time and alone, was current when it left. */
    static final Duration FRESH = Duration.ofMillis(500);

    @Inject
    AttemptRunner runner;
    @Inject
    AttemptFence fence;
    @Inject
    AgentWorkers workers;
    @Inject
    ReplySender replies;
    @Inject
    DeadLetters deadLetters;
    @Inject
    AgentMetrics metrics;
    @Inject
    AgentSettings settings;
    @Inject
    Clocks clocks;
    @Inject
    DatabaseReachability database;
    @Inject
    Tracing tracing;

    @Override
    public void onMessage(Message message) {
        List<AttemptRequest> requests = deadLetters.readBatch(message, Destinations.AGENT_REQUESTS, AttemptRequest.class,
                "agent request", RemoteServiceAgent::complete, "orderId, operation or completeBy").orElse(null);
        if (requests == null) {
            return;
        }
        if (deadLetters.handedBackWhileDatabaseAway(message, Destinations.AGENT_REQUESTS)) {
            return; // this instance cannot reach its database: another instance takes the requests at once.
        }
        Instant sent = sentAt(message);
        Set<String> current;
        if (needsFence(redelivered(message), sent, clocks.now().toInstant(), requests)) {
            try {
                current = fence.current(requests);
                database.reached();
            } catch (RuntimeException e) {
                // Delivered again while the database is out; the request expires with its attempt's complete-by.
                deadLetters.retryOrReject(message, Destinations.AGENT_REQUESTS, e);
                return;
            }
        } else {
            current = Set.of(AttemptFence.key(requests.get(0).orderId(), requests.get(0).epoch()));
        }
        List<AgentWorkers.Handed> running = new ArrayList<>(requests.size());
        sent = tracing.on() ? sent : null;
        for (AttemptRequest request : requests) {
            if (sent != null) {
                // The request's wait in the broker, from the send to this delivery: a span of its own in the trace.
                tracing.child("queued " + request.operation(), SpanKind.INTERNAL, request.trace(), sent).end();
            }
            if (!current.contains(AttemptFence.key(request.orderId(), request.epoch()))) {
                LOG.log(Level.FINE, "Order {0} (trace {3}): {1} attempt (epoch {2}) is no longer current; not started",
                        new Object[] {request.orderId(), request.operation(), request.epoch(),
                                TraceParent.traceId(request.trace())});
                metrics.failed(request.operation(), AgentMetrics.FailureKind.FENCED);
                continue;
            }
            running.add(workers.submit(request, () -> runner.run(request, true).ifPresent(replies::send)));
        }
        awaitAll(running, requests);
    }

    private void awaitAll(List<AgentWorkers.Handed> running, List<AttemptRequest> requests) {
        Instant lastDeadline = requests.stream().map(AttemptRequest::completeBy).max(java.util.Comparator.naturalOrder())
                .orElseThrow().toInstant().plus(GRACE);
        Instant now = clocks.now().toInstant();
        try {
            DeliveryHold.await(running, now.plus(settings.deliveryHold()), lastDeadline, () -> clocks.now().toInstant());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether the batch's attempts are checked against the state store (one query, {@link AttemptFence}) before
     * their first calls. A request delivered for the first time, alone, within {@link #FRESH} of its send was
     * current when it left: the transaction that decided it had committed just before, and its message expires
     * with its complete-by, so no retry of it can be running. Only an operator's action in that moment (a
     * cancel, a pause) can have moved its order on since: then one call more is made, under the attempt's
     * idempotency key, and its reply is refused by epoch and token as a late one is. That check was a
     * database round trip and commit per step (decision 0026). Everything else is checked: a redelivery (the
     * first delivery may have called and answered), a request that waited in the broker (a backlog, an outage,
     * or a clock that cannot tell), a batch (one query costs little beside its calls), and an attempt with a
     * heartbeat (a missed beat retries it before its complete-by, while its request may still wait).
     */
    static boolean needsFence(boolean redelivered, Instant sent, Instant now, List<AttemptRequest> requests) {
        if (redelivered || sent == null || requests.size() != 1 || requests.get(0).heartbeat().isPresent()) {
            return true;
        }
        Duration waited = Duration.between(sent, now);
        return waited.isNegative() || waited.compareTo(FRESH) > 0;
    }

    private static boolean redelivered(Message message) {
        try {
            return message.getJMSRedelivered();
        } catch (JMSException e) {
            return true; // unknown: checked
        }
    }

    /** When the scheduler's courier sent the message (its JMSTimestamp), or null if the sender left it out. */
    private static Instant sentAt(Message message) {
        try {
            long timestamp = message.getJMSTimestamp();
            return timestamp > 0 ? Instant.ofEpochMilli(timestamp) : null;
        } catch (JMSException e) {
            return null;
        }
    }

    private static boolean complete(AttemptRequest request) {
        return request.orderId() != null && request.operation() != null && request.completeBy() != null;
    }
}
