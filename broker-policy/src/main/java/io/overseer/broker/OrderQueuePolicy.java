package io.overseer.broker;

import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.ActiveMQExceptionType;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.core.server.ServerSession;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerPlugin;
import org.apache.activemq.artemis.core.transaction.Transaction;

/**
 * What the broker must enforce itself on the addresses clients send to, because the application sees a
 * message only after the broker stored it (security issue 16). Named in broker.xml's
 * {@code <broker-plugins>}; its properties:
 * <ul>
 * <li>{@code addresses}: comma-separated addresses it guards (Overseer's: {@code orders});</li>
 * <li>{@code max-message-bytes}: the largest message, headers and body, a sender may put there. The
 * application refuses a body over 256 KiB anyway (io.overseer.messaging.Destinations#MAX_ORDER_BODY_BYTES), but only after the broker
 * stored it: without this a submitter could park 10 MB messages in the broker's memory and disk.</li>
 * </ul>
 * On every message sent to those addresses it also writes the sender's validated user into
 * {@value #VALIDATED_USER}, overwriting whatever the client put there. populate-validated-user does this for
 * the core, OpenWire and STOMP protocols, but an AMQP message reaches a core consumer without it — and
 * with any application property of that name its sender chose. The application scopes idempotency keys
 * and reply-to ownership by this user, so it must be the broker's word, whatever the protocol.
 */
public class OrderQueuePolicy implements ActiveMQServerPlugin {

    /** Where the application reads a message's sender (io.overseer.messaging.Destinations#VALIDATED_USER). */
    static final String VALIDATED_USER = "_AMQ_VALIDATED_USER";
    private static final Logger LOG = Logger.getLogger(OrderQueuePolicy.class.getName());

    private static final long QUIET_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(60);

    private Set<String> addresses = Set.of();
    // Only for the log's rhythm: a lost update under a race costs a count in a log line, nothing else.
    private volatile long lastLogged = System.nanoTime() - QUIET_NANOS;
    private volatile long refusedSinceLogged;
    private long maxMessageBytes = Long.MAX_VALUE;

    @Override
    public void init(Map<String, String> properties) {
        String guarded = properties.get("addresses");
        String max = properties.get("max-message-bytes");
        if (guarded == null || guarded.isBlank() || max == null) {
            throw new IllegalArgumentException("OrderQueuePolicy needs the properties addresses and max-message-bytes,"
                    + " got " + properties);
        }
        addresses = Set.of(guarded.trim().split("\\s*,\\s*"));
        maxMessageBytes = Long.parseLong(max.trim());
        if (maxMessageBytes < 1024) {
            throw new IllegalArgumentException("max-message-bytes must be at least 1024: " + max);
        }
        LOG.log(Level.INFO, "Overseer order queue policy: at most {0} bytes a message, sender stamped, on {1}",
                new Object[] {Long.toString(maxMessageBytes), addresses});
    }

    @Override
    public void beforeSend(ServerSession session, Transaction tx, Message message, boolean direct,
                           boolean noAutoCreateQueue) throws ActiveMQException {
        String address = message.getAddress();
        if (session == null || address == null || !addresses.contains(address)) {
            return; // not a client's send (the broker moving a message itself): nothing to check or stamp
        }
        String user = session.getValidatedUser();
        check(message.getWholeMessageSize(), address, user);
        String claimed = message.getStringProperty(VALIDATED_USER);
        if (user != null && !user.equals(claimed)) {
            // Only where it differs: Core, OpenWire and STOMP messages carry it already (populate-validated-
            // user), and a property written again makes the broker encode the message anew, on the hot path.
            message.putStringProperty(VALIDATED_USER, user);
        } else if (user == null && claimed != null) {
            // A broker without authentication: nobody's word, so no claim of the client's stands either.
            message.removeProperty(org.apache.activemq.artemis.api.core.SimpleString.of(VALIDATED_USER));
        }
    }

    /**
     * Refuses a message over {@code max-message-bytes}: the sender gets the exception, nothing is stored.
     * Logged once per burst (the first, then at most a line a minute with how many followed): a client
     * hammering the limit must not flood the broker's log.
     */
    void check(long size, String address, String user) throws ActiveMQException {
        if (size > maxMessageBytes) {
            refusedSinceLogged++;
            long now = System.nanoTime();
            if (now - lastLogged >= QUIET_NANOS) {
                LOG.log(Level.WARNING, "Refused a message of {0} bytes from {1} to {2}: at most {3} ({4} refused"
                        + " since the last such line)", new Object[] {Long.toString(size), user, address,
                                Long.toString(maxMessageBytes), Long.toString(refusedSinceLogged)});
                lastLogged = now;
                refusedSinceLogged = 0;
            }
            throw new ActiveMQException(ActiveMQExceptionType.ILLEGAL_STATE, "message of " + size + " bytes refused: "
                    + address + " takes at most " + maxMessageBytes + " bytes a message");
        }
    }
}
