package io.overseer.agent;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * What the scheduler asks an agent to do: one attempt at one step of one order, to be finished by
 * {@code completeBy}. The idempotency key is the same for every attempt at this step of this order,
 * so the remote service applies the effect once however often it is asked. The {@code token} is the
 * attempt's random fencing token: the reply must carry it back, so that nobody who did not see the
 * request can answer it.
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
        List<Line> lines) {

    public record Line(String sku, int quantity) {
    }

    public static String idempotencyKey(String orderId, String operation) {
        return orderId + ":" + operation;
    }
}
