package io.overseer.messaging;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The broker's queues as Artemis management sees them: their counts, the dead letters, and the two things
 * an operator does with a dead letter — send it back to the queue it came from (QueueControl's
 * retryMessage, which needs the {@code _AMQ_ORIG_ADDRESS} and {@code _AMQ_ORIG_QUEUE} the broker sets
 * when it dead-letters a message itself, and {@link DeadLetters} sets on what it dead-letters from the
 * order queue) or delete it. Through management messages ({@link ManagementRequests}), never by
 * consuming or browsing the queues.
 *
 * <p>Which connection: the application's one pool ({@value Destinations#CONNECTION_FACTORY}) joins a JTA
 * transaction as a local resource, and inside one its sends wait for the commit — a request that waits for
 * its own reply before the commit would never get one. So no transaction: this bean is NOT_SUPPORTED, and the calls run as a
 * task of the server's managed executor, whose tasks carry no transaction either; the pool's connection
 * then sends at once and the context is non-transacted (AUTO_ACKNOWLEDGE). These are reads and
 * broker-side operations, not state transitions: nothing here needs to commit with the database.
 *
 * <p>Bounded: a broker that does not answer (down, reconnecting, frozen) costs a caller at most
 * {@link #CALL_TIMEOUT_MILLIS}, then {@link BrokerUnavailableException}. The client can block far longer
 * (30 s call timeout, reconnection without end), so the calls run on the executor and the caller stops
 * waiting. At most {@link #MAX_IN_FLIGHT} calls run at once: a caller waits for a free one within the same
 * bound (calls to a healthy broker take milliseconds), so stuck calls never take more threads than that.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class BrokerQueues {

    /** The queues the console shows, in its order. */
    public static final List<String> QUEUES = List.of(Destinations.ORDERS, Destinations.AGENT_REQUESTS,
            Destinations.AGENT_REPLIES, Destinations.DEAD_LETTERS, Destinations.EXPIRY);
    static final long CALL_TIMEOUT_MILLIS = 5000;
    static final long REPLY_TIMEOUT_MILLIS = 3000;
    static final int MAX_IN_FLIGHT = 4;
    private static final Semaphore IN_FLIGHT = new Semaphore(MAX_IN_FLIGHT);
    private static final String DLQ = "queue." + Destinations.DEAD_LETTERS;

    @Resource(name = Destinations.CONNECTION_FACTORY)
    ConnectionFactory factory;
    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;
    /** {@link #CALL_TIMEOUT_MILLIS}; shorter in tests. */
    long callTimeoutMillis = CALL_TIMEOUT_MILLIS;

    public List<QueueStats> queues() throws BrokerUnavailableException {
        return manage("read the queues' counts", broker -> {
            List<QueueStats> stats = new ArrayList<>();
            for (String name : QUEUES) {
                String resource = "queue." + name;
                stats.add(new QueueStats(name, number(broker.attribute(resource, "messageCount")),
                        (int) number(broker.attribute(resource, "consumerCount")),
                        number(broker.attribute(resource, "deliveringCount")),
                        number(broker.attribute(resource, "scheduledCount")),
                        number(broker.attribute(resource, "messagesAdded"))));
            }
            return stats;
        });
    }

    /** The first {@code limit} messages of the DLQ, oldest first (QueueControl's browse, page 1). */
    public List<DeadLetter> deadLetters(int limit) throws BrokerUnavailableException {
        return manage("list the dead letters", broker -> {
            JsonValue page = broker.invoke(DLQ, "browse", 1, limit);
            return page instanceof JsonObject object ? DeadLetterPages.read(object) : List.of();
        });
    }

    /** Sends one dead letter back to its original queue; false if there is none with that id that can go back. */
    public boolean redrive(long messageId) throws BrokerUnavailableException {
        return manage("redrive dead letter " + messageId,
                broker -> broker.invoke(DLQ, "retryMessage", messageId) == JsonValue.TRUE);
    }

    /** Sends every dead letter that has an original queue back to it; how many went. */
    public int redriveAll() throws BrokerUnavailableException {
        return manage("redrive the dead letters", broker -> (int) number(broker.invoke(DLQ, "retryMessages")));
    }

    /** Deletes one dead letter; false if there is none with that id. */
    public boolean delete(long messageId) throws BrokerUnavailableException {
        return manage("delete dead letter " + messageId,
                broker -> broker.invoke(DLQ, "removeMessage", messageId) == JsonValue.TRUE);
    }

    /**
     * The broker user that created {@code queue} (QueueControl's getUser), or empty if there is no such
     * queue now. For the reply-to check of a temporary queue: only its creator may have notifications sent
     * to it. The application's permission covers this one read of any queue (broker.xml's mops.queue.*.getUser).
     */
    public Optional<String> queueOwner(String queue) throws BrokerUnavailableException {
        return manage("look up who created queue " + queue, broker -> {
            JsonValue user;
            try {
                user = broker.invoke("queue." + queue, "getUser");
            } catch (ManagementRequests.ManagementException e) {
                if (ManagementRequests.isUnknownResource(e)) {
                    return Optional.empty();
                }
                throw e;
            }
            return Optional.of(user instanceof JsonString text ? text.getString() : "");
        });
    }

    private <T> T manage(String what, Function<ManagementRequests, T> work) throws BrokerUnavailableException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(callTimeoutMillis);
        try {
            if (!IN_FLIGHT.tryAcquire(callTimeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new NotSent("Could not " + what + ": earlier calls to the broker are still waiting for it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotSent("Could not " + what + ": interrupted");
        }
        // The permit is released by whoever claims the call: the task when it starts, or the caller
        // if it gives up before the task started (a cancelled task never runs, so never releases).
        AtomicBoolean claimed = new AtomicBoolean();
        Future<T> call;
        try {
            call = executor.submit(() -> {
                if (!claimed.compareAndSet(false, true)) {
                    return null;
                }
                try (JMSContext jms = factory.createContext(JMSContext.AUTO_ACKNOWLEDGE);
                     ManagementRequests broker = new ManagementRequests(jms, REPLY_TIMEOUT_MILLIS)) {
                    return work.apply(broker);
                } finally {
                    IN_FLIGHT.release();
                }
            });
        } catch (RejectedExecutionException e) {
            IN_FLIGHT.release();
            throw new NotSent("Could not " + what + ": " + e);
        }
        try {
            return call.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            if (claimed.compareAndSet(false, true)) {
                IN_FLIGHT.release();
            }
            throw new BrokerUnavailableException("Could not " + what + ": the broker did not answer within "
                    + callTimeoutMillis + " ms (a request already sent is carried out if it wakes up)", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof JMSRuntimeException || cause instanceof ManagementRequests.ManagementException) {
                throw new BrokerUnavailableException("Could not " + what + ": " + cause.getMessage(), cause);
            }
            throw new IllegalStateException("Could not " + what, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (claimed.compareAndSet(false, true)) {
                IN_FLIGHT.release();
            }
            throw new BrokerUnavailableException("Could not " + what + ": interrupted", e);
        }
    }

    /** The broker is unavailable and nothing was sent to it: an action certainly did not happen. */
    public static final class NotSent extends BrokerUnavailableException {
        private static final long serialVersionUID = 1L;

        NotSent(String message) {
            super(message);
        }
    }

    static long number(JsonValue value) {
        if (value instanceof JsonNumber number) {
            return number.longValue();
        }
        if (value instanceof jakarta.json.JsonString text) {
            return Long.parseLong(text.getString());
        }
        throw new ManagementRequests.ManagementException("expected a number from the broker, got " + value);
    }
}
