package io.overseer.agent;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * What the scheduler asks an agent to do: one attempt at one step of one order, to be finished by
 * {@code completeBy}. The idempotency key is the same for every attempt at this step of this order,
 * so the remote service applies the effect once however often it is asked. The {@code token} is the
 * attempt's random fencing token: the reply must carry it back, so that nobody who did not see the
 * request can answer it.
 *
 * <p>{@code heartbeat}, when the step declares one, is how long the attempt may go without its agent
 * reporting that it is alive ({@link Heartbeats#beat}); a coded agent working on a long call beats more
 * often than that, and the attempt expires (and is retried) once it falls silent. Null otherwise.
 *
 * <p>{@code events}: the JSON bodies of the external events the order has received so far (steps that
 * waited for one), by event name — e.g. an approval's terms for the step that acts on it. Empty if none.
 *
 * <p>{@code trace}: the W3C traceparent of the scheduler's dispatch span, whose child the agent's span is;
 * in the body rather than a message property because one message carries the requests of many orders. Null
 * when the order is not traced.
 *
 * <p>One constructor only: JSON-B (Yasson) refuses to read a record that has more than one.
 */
public record AgentRequest(
        String orderId,
        long epoch,
        int stepSeq,
        String token,
        String operation,
        String idempotencyKey,
        OffsetDateTime completeBy,
        String customerId,
        List<Line> lines,
        Duration heartbeat,
        Map<String, String> events,
        String trace) {

    public record Line(String sku, int quantity) {
    }

    public static String idempotencyKey(String orderId, String operation) {
        return orderId + ":" + operation;
    }
}
