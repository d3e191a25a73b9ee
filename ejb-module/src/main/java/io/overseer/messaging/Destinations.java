package io.overseer.messaging;

import java.util.Set;

/**
 * The one home of every JMS name the application uses. Server configuration
 * (server-config/artemis/broker.xml, server-config/payara/post-boot.asadmin) must match these names.
 */
public final class Destinations {

    /** Order queue: new orders from legacy JMS clients, and "work is ready" hints for the scheduler. */
    public static final String ORDERS = "orders";
    /** Requests from the scheduler to the agents. */
    public static final String AGENT_REQUESTS = "agent.requests";
    /** Replies from the agents to the scheduler, correlated by the request's message id. */
    public static final String AGENT_REPLIES = "agent.replies";
    /** Topic on which operator alerts are published. */
    public static final String ALERTS = "alerts";
    /** Where messages go that can never be processed, with a {@link #DEAD_LETTER_REASON} property. */
    public static final String DEAD_LETTERS = "DLQ";
    /** Where the broker moves messages that expired before anyone consumed them. */
    public static final String EXPIRY = "ExpiryQueue";
    /**
     * Prefix of the named queues and topics on which submitters receive status notifications, followed by
     * the user's name: {@code overseer.reply.<user>.} ({@link #replyPrefixOf}). Clients may also use
     * temporary queues; no other name is accepted as a reply-to (see
     * {@link io.overseer.notification.ReplyToRule}).
     */
    public static final String REPLY_PREFIX = "overseer.reply.";

    /** JNDI name of the pooled, transactional connection factory bound by the server configuration. */
    public static final String CONNECTION_FACTORY = "jms/overseer/ConnectionFactory";
    /** Name under which the server knows the Artemis resource adapter (the .rar's file name). */
    public static final String RESOURCE_ADAPTER = "artemis-rar";

    /** Message property naming the kind of an order-queue message; see {@link OrderQueueMessage}. */
    public static final String MESSAGE_TYPE = "overseerType";
    public static final String ORDER_ID = "orderId";
    /**
     * On an event message of the order queue ({@link OrderQueueMessage#EVENT}): the event's name. Not
     * {@link #EVENT}, which names a status notification's kind on the way out.
     */
    public static final String EVENT_NAME = "eventName";
    /**
     * The largest body of an order-queue message; far above the largest valid order (100 items). A bigger
     * body is refused unread (io.overseer.submission.OrderMessages), and a dead-letter copy keeps at most
     * four times this much (DeadLetters).
     */
    public static final int MAX_ORDER_BODY_BYTES = 256 * 1024;
    public static final String DEAD_LETTER_REASON = "dlqReason";
    public static final String DEAD_LETTER_ORIGIN = "dlqOriginalDestination";
    /** Reply-to for clients whose protocol has none of its own: {@code queue://name}, {@code topic://name} or a queue name. */
    public static final String REPLY_TO = "overseerReplyTo";
    /** The submitter's business key: one order per key and broker user, however often the message is sent. */
    public static final String IDEMPOTENCY_KEY = "idempotencyKey";
    /** Set on status notifications: received, step-completed, processed, … (see StatusEvent). */
    public static final String EVENT = "overseerEvent";
    /** The broker's duplicate-detection header: a second message with the same value is dropped by Artemis. */
    public static final String DUPLICATE_ID = "_AMQ_DUPL_ID";
    /** The authenticated sender, stamped by Artemis (populate-validated-user in broker.xml). */
    public static final String VALIDATED_USER = "_AMQ_VALIDATED_USER";

    /**
     * The queues whose messages are hints the state store already covers: a lost agent request or reply is
     * an attempt that expires and is retried under the same idempotency key, a lost dispatch hint an order
     * the stranded-order poller finds. They may travel non-persistent ({@code overseer.messaging.hops},
     * decision 0026); notifications and alerts, which nothing recovers, always travel persistent.
     */
    private static final Set<String> HOPS = Set.of(ORDERS, AGENT_REQUESTS, AGENT_REPLIES);

    /** Whether a message to {@code destination} is one of the hints that {@link #HOPS} names. */
    public static boolean isHop(String destination) {
        return HOPS.contains(destination);
    }

    private static final Set<String> INTERNAL = Set.of(ORDERS, AGENT_REQUESTS, AGENT_REPLIES, ALERTS, DEAD_LETTERS, EXPIRY);

    /** Names a client may never have notifications sent to, whatever type it claims them to be. */
    public static boolean isInternal(String name) {
        return INTERNAL.contains(name) || name.startsWith("activemq.") || name.startsWith("$sys.")
                || (name.startsWith("overseer.") && !name.startsWith(REPLY_PREFIX));
    }

    private static final java.util.regex.Pattern REPLY_OWNER = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /**
     * {@code overseer.reply.<user>.}: where {@code user}'s named reply queues live, which broker permissions
     * let that user alone read. Empty for a user whose name could not stand as one word of an address (a
     * dot would split it, a wildcard would widen it): such a user takes a temporary queue.
     */
    public static java.util.Optional<String> replyPrefixOf(String user) {
        return user != null && REPLY_OWNER.matcher(user).matches()
                ? java.util.Optional.of(REPLY_PREFIX + user + ".") : java.util.Optional.empty();
    }

    private Destinations() {
    }
}
