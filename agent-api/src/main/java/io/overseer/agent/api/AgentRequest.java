package io.overseer.agent.api;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One attempt at one step of one order, as a coded agent receives it. Overseer implements this interface;
 * a minor release may add methods to it (see the package's compatibility notes).
 *
 * <p>Requests arrive at least once: the same attempt may reach your service again (a redelivery after a
 * crash, a retry by the supervisor once the deadline passed, maybe on another instance). The
 * {@link #idempotencyKey()} is the same for every attempt at this step of this order: send it, and the
 * remote service applies the effect once.
 */
public interface AgentRequest {

    /**
     * The order's id.
     *
     * @return the id Overseer gave the order at submission
     */
    String orderId();

    /**
     * The step's position in the order's workflow, from 0; a compensation has the position of the step it undoes.
     *
     * @return the step's sequence number
     */
    int stepSeq();

    /**
     * The operation to perform: the step's operation, or its compensation's.
     *
     * @return the operation's name, as the workflow definition gives it
     */
    String operation();

    /**
     * The key to send to the remote service so that it applies this step's effect once, however often it
     * is asked: the same for every attempt at this operation of this order, and different for any other.
     * Send it as it is; its form is Overseer's and may change in a major release.
     *
     * @return the idempotency key
     */
    String idempotencyKey();

    /**
     * When the attempt must be finished, on the database's clock. The {@code timeout} of
     * {@link RemoteService#call} is what is left of it.
     *
     * @return the attempt's deadline
     */
    OffsetDateTime completeBy();

    /**
     * The customer the order is for.
     *
     * @return the customer's id, as submitted
     */
    String customerId();

    /**
     * The order's lines, as submitted.
     *
     * @return the lines, in order; never null, not modifiable
     */
    List<? extends Line> lines();

    /**
     * When the step declares a heartbeat: how long the attempt may go without its agent reporting that it is
     * alive ({@link Heartbeats#beat}). A long call beats more often than that.
     *
     * @return the heartbeat interval, or empty when the step has none
     */
    Optional<Duration> heartbeat();

    /**
     * The JSON bodies of the external events the order has received so far (steps that waited for one), by
     * event name: for example an approval's terms for the step that acts on it.
     *
     * @return the events' bodies by name; empty if none, never null, not modifiable
     */
    Map<String, String> events();

    /** One line of an order. */
    interface Line {

        /**
         * The article.
         *
         * @return the stock-keeping unit, as submitted
         */
        String sku();

        /**
         * How many.
         *
         * @return the quantity, at least 1
         */
        int quantity();
    }
}
