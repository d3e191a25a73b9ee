package io.overseer.messaging;

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

    /** JNDI name of the pooled, transactional connection factory bound by the server configuration. */
    public static final String CONNECTION_FACTORY = "jms/overseer/ConnectionFactory";
    /** Name under which the server knows the Artemis resource adapter (the .rar's file name). */
    public static final String RESOURCE_ADAPTER = "artemis-rar";

    /** Message property naming the kind of an order-queue message; see {@link OrderQueueMessage}. */
    public static final String MESSAGE_TYPE = "overseerType";
    public static final String ORDER_ID = "orderId";
    public static final String DEAD_LETTER_REASON = "dlqReason";
    public static final String DEAD_LETTER_ORIGIN = "dlqOriginalDestination";

    private Destinations() {
    }
}
