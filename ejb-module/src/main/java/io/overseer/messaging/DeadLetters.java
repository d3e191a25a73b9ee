package io.overseer.messaging;

import io.overseer.platform.DatabaseReachability;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.Json;
import io.overseer.platform.Outage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import jakarta.json.bind.JsonbException;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Moves a message that can never be processed (malformed, invalid, forged) to the dead-letter queue with
 * the reason. Listeners run without a transaction and acknowledge a message when onMessage returns, so
 * the original is acknowledged only after the copy was sent (a crash in between sends a second copy).
 * A failure while processing goes through {@link #retryOrReject}: the broker delivers the message again
 * while the failure is an outage, and it comes here with the failure as its reason once it is clearly not
 * (see {@link Redelivery}).
 */
@ApplicationScoped
public class DeadLetters {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class.getName());
    /** On a copy: the broker-validated user that sent the original. */
    public static final String ORIGINAL_SENDER = "dlqOriginalSender";
    /** On a copy: the original's JMSMessageID. */
    public static final String ORIGINAL_MESSAGE_ID = "dlqOriginalMessageId";
    /** On the copy of one order of a message that carried many: its place in the message, from 0. */
    public static final String ITEM_INDEX = "dlqItemIndex";
    /** On a copy whose body was cut: the original body's length in bytes. */
    public static final String BODY_CUT = "dlqBodyCutFrom";
    /** The most of a bytes body a copy keeps (four times the order queue's largest body). */
    static final long MAX_COPIED_BYTES = Destinations.MAX_ORDER_BODY_BYTES * 4L;

    @Inject
    @JMSConnectionFactory(Destinations.CONNECTION_FACTORY)
    JMSContext jms;
    @Inject
    DatabaseReachability database;
    @Inject
    InstanceIdentity instance;

    /** On a copy handed back: how many times instances without their database handed it back. */
    public static final String HANDED_BACK = "overseerHandedBack";
    /** On a copy handed back: the instance that handed it back last. */
    public static final String HANDED_BACK_BY = "overseerHandedBackBy";
    /** On a copy handed back by two instances or more: every instance may lack the database. */
    public static final String HANDED_BACK_BY_OTHERS = "overseerHandedBackByOthers";
    /**
     * Hand-backs by one instance alone made {@link #QUICK_DELAY_MS} apart before the delay grows. The broker
     * offers a queue's messages to its consumers in turn, and an instance's consumers stand side by side in
     * that order (its MDB pool opens them together: 16 for agent requests, 8 for replies), so a copy delivered
     * on a quiet queue often lands on the next consumer of the same instance; it takes up to one hand-back per
     * consumer of the instance to reach another's. Seen with a second's delay: one reply handed back five
     * times in a row, then left for 2, 4, 8 and 16 s until its attempt expired, again and again, and a healthy
     * order compensated (PartitionIT).
     */
    static final int QUICK_HAND_BACKS = 40;
    static final long QUICK_DELAY_MS = 50;
    /** Hand-backs a second apart, once two instances have handed a copy back, before the delay doubles. */
    static final int SHARED_QUICK_HAND_BACKS = 5;
    static final long MAX_HAND_BACK_DELAY_MS = 30_000;
    /** The queues whose messages the application itself sends, which an instance hands back. */
    private static final java.util.Set<String> HANDED_BACK_QUEUES = java.util.Set.of(Destinations.AGENT_REQUESTS,
            Destinations.AGENT_REPLIES);

    /**
     * Rethrows {@code failure}, so that the broker delivers the message again, unless {@link Redelivery}
     * says it has failed often enough for a reason that is not an outage: then it is dead-lettered with
     * that reason and this returns normally (the message is acknowledged).
     */
    public void retryOrReject(Message message, String origin, RuntimeException failure) {
        if (Outage.isUnreachable(failure)) {
            database.lost();
            if (HANDED_BACK_QUEUES.contains(origin)) {
                handBack(message, origin);
                return;
            }
        }
        Optional<String> reason = Redelivery.deadLetterReason(deliveryCount(message), failure);
        if (reason.isEmpty()) {
            throw failure;
        }
        LOG.log(Level.WARNING, "A message from " + origin + " keeps failing; dead-lettering it", failure);
        reject(message, origin, reason.get());
    }

    /**
     * Hands {@code message} back ({@link #handBack}) if this instance knows its database is away and it is
     * not this delivery's turn to find out whether it is back ({@link DatabaseReachability#mayTry}).
     *
     * @return whether it was handed back (the caller is done with it)
     */
    public boolean handedBackWhileDatabaseAway(Message message, String origin) {
        if (database.mayTry()) {
            return false;
        }
        handBack(message, origin);
        return true;
    }

    /**
     * Sends a copy of an agent request or reply back to its queue and returns, so that the original is
     * acknowledged: what a consumer does with a delivery it cannot act on because this instance cannot
     * reach its database ({@link DatabaseReachability}), instead of holding it and leaving it to the
     * broker's redelivery delay, which doubles at every delivery while the copies keep landing here. The copy
     * is delivered {@link #handBackDelayMillis soon} while only this instance hands it back, later and later
     * once others do too (every instance without the database: no hot loop); it keeps the original's
     * properties (not the broker's own, duplicate detection's id included: the copy is a new message) and what
     * is left of its time to live; one already expired is dropped, its attempt expiring as it would have. A
     * crash between the send and the acknowledgement leaves two copies: consumers are idempotent.
     */
    public void handBack(Message message, String origin) {
        try {
            int times = message.propertyExists(HANDED_BACK) ? message.getIntProperty(HANDED_BACK) + 1 : 1;
            String me = instance.id();
            boolean others = message.propertyExists(HANDED_BACK_BY_OTHERS) && message.getBooleanProperty(HANDED_BACK_BY_OTHERS)
                    || message.propertyExists(HANDED_BACK_BY) && !me.equals(message.getStringProperty(HANDED_BACK_BY));
            long delay = handBackDelayMillis(times, others);
            JMSProducer producer = jms.createProducer().setDeliveryDelay(delay);
            long expiration = message.getJMSExpiration();
            if (expiration > 0) {
                long left = expiration - System.currentTimeMillis();
                if (left <= delay) {
                    LOG.log(Level.FINE, "A message from {0} expired while this instance lacked its database", origin);
                    return;
                }
                producer.setTimeToLive(left);
            }
            copyProperties(message, producer);
            producer.setProperty(HANDED_BACK, times);
            producer.setProperty(HANDED_BACK_BY, me);
            producer.setProperty(HANDED_BACK_BY_OTHERS, others);
            if (message.getJMSCorrelationID() != null) {
                producer.setJMSCorrelationID(message.getJMSCorrelationID());
            }
            producer.send(jms.createQueue(origin), message instanceof TextMessage text ? text.getText() : null);
            LOG.log(times == 1 ? Level.INFO : Level.FINE, "Handed a message from {0} back (time {1}, again in {2} ms):"
                    + " this instance cannot reach its database", new Object[] {origin, times, delay});
        } catch (JMSException e) {
            throw new IllegalStateException("Could not hand a message from " + origin + " back", e);
        }
    }

    /**
     * How long a copy handed back for the {@code times}th time waits: {@value #QUICK_DELAY_MS} ms while one
     * instance alone has handed it back, up to {@value #QUICK_HAND_BACKS} times (long enough to pass its
     * consumers, short enough for the attempt's deadline); then, or as soon as another instance handed it back
     * too, a second for {@value #SHARED_QUICK_HAND_BACKS} times, then doubling at each time up to
     * {@value #MAX_HAND_BACK_DELAY_MS} ms.
     */
    static long handBackDelayMillis(int times, boolean handedBackByOthers) {
        if (!handedBackByOthers && times <= QUICK_HAND_BACKS) {
            return QUICK_DELAY_MS;
        }
        // A second apart for the first SHARED_QUICK_HAND_BACKS (a database failover takes 10-15 s), then doubling.
        int slow = handedBackByOthers ? times - 1 - SHARED_QUICK_HAND_BACKS : times - QUICK_HAND_BACKS - 1;
        return Math.min(MAX_HAND_BACK_DELAY_MS, 1000L << Math.min(Math.max(0, slow), 5));
    }

    /** The application's own properties of {@code message} onto the copy {@code producer} sends. */
    private static void copyProperties(Message message, JMSProducer producer) throws JMSException {
        copyProperties(message, producer, null);
    }

    private static void copyProperties(Message message, JMSProducer producer, String except) throws JMSException {
        for (Object name : Collections.list(message.getPropertyNames())) {
            String key = (String) name;
            if (!key.equals(except) && !key.startsWith("JMS") && !key.startsWith("_") && isIdentifier(key) && !key.startsWith(HANDED_BACK)) {
                producer.setProperty(key, message.getObjectProperty(key));
            }
        }
    }

    private static int deliveryCount(Message message) {
        try {
            return message.propertyExists("JMSXDeliveryCount") ? message.getIntProperty("JMSXDeliveryCount") : 1;
        } catch (JMSException | NumberFormatException e) {
            return 1;
        }
    }

    /**
     * The JSON batch of {@code type} a message from {@code origin} holds, or empty when it holds none that
     * can be processed — not JSON of that shape, not a text message, empty, or an item not {@code complete}:
     * then the message was dead-lettered with the reason (naming {@code what} it should have held) and the
     * caller stops. A failure to read the message at all is the broker's, and rethrown: it comes again.
     */
    public <T> Optional<List<T>> readBatch(Message message, String origin, Class<T> type, String what,
                                           Predicate<T> complete, String incomplete) {
        List<T> batch;
        try {
            batch = Json.readBatch(((TextMessage) message).getText(), type);
        } catch (JsonbException | ClassCastException e) {
            reject(message, origin, "unreadable " + what + ": " + e.getMessage());
            return Optional.empty();
        } catch (JMSException e) {
            throw new IllegalStateException("Could not read a message from " + origin, e);
        }
        if (batch.isEmpty() || !batch.stream().allMatch(item -> item != null && complete.test(item))) {
            reject(message, origin, what + " without " + incomplete);
            return Optional.empty();
        }
        return Optional.of(batch);
    }

    /**
     * The copy keeps the original's properties and correlation id, and says who sent the original
     * ({@value #ORIGINAL_SENDER}: the broker stamps the copy with the application's user) and which message
     * it was ({@value #ORIGINAL_MESSAGE_ID}); a body cut to {@link #MAX_COPIED_BYTES} says so
     * ({@value #BODY_CUT}, the original's length).
     */
    public void reject(Message message, String origin, String reason) {
        try {
            JMSProducer producer = jms.createProducer()
                    .setProperty(Destinations.DEAD_LETTER_REASON, reason)
                    .setProperty(Destinations.DEAD_LETTER_ORIGIN, origin)
                    .setProperty(ORIGINAL_SENDER, Objects.requireNonNullElse(
                            message.getStringProperty(Destinations.VALIDATED_USER), ""))
                    .setProperty(ORIGINAL_MESSAGE_ID, Objects.requireNonNullElse(message.getJMSMessageID(), ""));
            if (Destinations.ORDERS.equals(origin)) {
                redrivable(producer, origin);
            }
            copyProperties(message, producer);
            if (message.getJMSCorrelationID() != null) {
                producer.setJMSCorrelationID(message.getJMSCorrelationID());
            }
            if (message instanceof BytesMessage bytes) {
                bytes.reset();
                if (bytes.getBodyLength() > MAX_COPIED_BYTES) {
                    producer.setProperty(BODY_CUT, bytes.getBodyLength());
                }
                producer.send(jms.createQueue(Destinations.DEAD_LETTERS), body(bytes));
            } else {
                producer.send(jms.createQueue(Destinations.DEAD_LETTERS),
                        message instanceof TextMessage text ? text.getText() : null);
            }
            LOG.log(Level.WARNING, "Dead-lettered message {0} from {1}: {2}",
                    new Object[] {message.getJMSMessageID(), origin, reason});
        } catch (JMSException e) {
            throw new IllegalStateException("Could not dead-letter a message from " + origin, e);
        }
    }

    /**
     * Marks the copy as Artemis marks what it dead-letters itself, so that an operator can send it back
     * (QueueControl's retryMessage, {@link BrokerQueues#redrive}). Only copies from the order queue: the
     * broker stamps the copy with the application's user ({@value Destinations#VALIDATED_USER}), and a
     * reply or request sent back to the agents' queues would pass as the application's own — the very
     * forgery ReplySenders refuses, and broker.xml keeps operators from sending there. Lost agent work is
     * re-issued by the supervisor instead.
     */
    private static void redrivable(JMSProducer producer, String queue) {
        producer.setProperty(DeadLetterPages.ORIGINAL_ADDRESS, queue).setProperty(DeadLetterPages.ORIGINAL_QUEUE, queue);
    }

    /**
     * Dead-letters one item of a batch message (the other items were processed): its JSON, the reason,
     * where it came from and who sent it.
     */
    public void rejectItem(String orderId, String json, String origin, String reason, String sender) {
        jms.createProducer()
                .setProperty(Destinations.ORDER_ID, orderId == null ? "" : orderId)
                .setProperty(Destinations.DEAD_LETTER_REASON, reason)
                .setProperty(Destinations.DEAD_LETTER_ORIGIN, origin)
                .setProperty(ORIGINAL_SENDER, sender == null ? "" : sender)
                .send(jms.createQueue(Destinations.DEAD_LETTERS), json);
        LOG.log(Level.WARNING, "Dead-lettered an item of a message from {0} sent by {1}: {2}",
                new Object[] {origin, sender, reason});
    }

    /**
     * Dead-letters one order of a message that carried many (the others were stored): the order's own JSON
     * as the body, the reason, and what says where it came from — the original's properties and correlation
     * id, its sender ({@value #ORIGINAL_SENDER}), its message id ({@value #ORIGINAL_MESSAGE_ID}) and the
     * order's place in it ({@value #ITEM_INDEX}, from 0). Not the original's {@value Destinations#IDEMPOTENCY_KEY}:
     * it named the whole message. Not marked for a redrive: an order refused alone was refused for what it
     * holds, and is sent again fixed, by its sender.
     */
    public void rejectItem(Message message, String origin, int index, String json, String reason) {
        try {
            JMSProducer producer = jms.createProducer();
            copyProperties(message, producer, Destinations.IDEMPOTENCY_KEY);
            producer.setProperty(Destinations.DEAD_LETTER_REASON, reason)
                    .setProperty(Destinations.DEAD_LETTER_ORIGIN, origin)
                    .setProperty(ORIGINAL_SENDER, Objects.requireNonNullElse(
                            message.getStringProperty(Destinations.VALIDATED_USER), ""))
                    .setProperty(ORIGINAL_MESSAGE_ID, Objects.requireNonNullElse(message.getJMSMessageID(), ""))
                    .setProperty(ITEM_INDEX, index);
            if (message.getJMSCorrelationID() != null) {
                producer.setJMSCorrelationID(message.getJMSCorrelationID());
            }
            producer.send(jms.createQueue(Destinations.DEAD_LETTERS), json);
            LOG.log(Level.WARNING, "Dead-lettered order {0} of message {1} from {2}: {3}",
                    new Object[] {index, message.getJMSMessageID(), origin, reason});
        } catch (JMSException e) {
            throw new IllegalStateException("Could not dead-letter an order of a message from " + origin, e);
        }
    }

    /** The body, even if the listener read part of it already, up to {@link #MAX_COPIED_BYTES}. */
    private static byte[] body(BytesMessage message) throws JMSException {
        message.reset();
        long length = message.getBodyLength();
        byte[] body = new byte[(int) Math.min(length, MAX_COPIED_BYTES)];
        message.readBytes(body);
        return body;
    }

    /**
     * Whether JMS allows the name for a property. STOMP headers such as content-length arrive as
     * properties a JMS producer may not set: they are left off the copy.
     */
    private static boolean isIdentifier(String name) {
        return !name.isEmpty() && Character.isJavaIdentifierStart(name.charAt(0))
                && name.chars().skip(1).allMatch(Character::isJavaIdentifierPart);
    }
}
