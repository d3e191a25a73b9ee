package io.overseer.agent;

import io.overseer.agent.api.AgentRequest;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.json.bind.annotation.JsonbTransient;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the scheduler asks an agent to do, as it travels on agent.requests: one attempt at one step of one
 * order, to be finished by {@code completeBy}. A coded agent sees it through the public
 * {@link AgentRequest}; the fencing fields are the machinery's own. The {@code token} is the attempt's random
 * fencing token: the reply must carry it back, so that nobody who did not see the request can answer it;
 * {@code epoch} is the order's claim it belongs to.
 *
 * <p>{@code heartbeatInterval} (on the wire {@code heartbeat}, its name before the public API was split
 * out, so that requests in flight across an upgrade keep it), when the step declares one, is how long the
 * attempt may go without its agent reporting that it is alive ({@link AttemptHeartbeats#beat}). Null otherwise.
 *
 * <p>{@code trace}: the W3C traceparent of the scheduler's dispatch span, whose child the agent's span is;
 * in the body rather than a message property because one message carries the requests of many orders. Null
 * when the order is not traced.
 *
 * <p>One constructor only: JSON-B (Yasson) refuses to read a record that has more than one.
 */
public record AttemptRequest(
        String orderId,
        long epoch,
        int stepSeq,
        String token,
        String operation,
        String idempotencyKey,
        OffsetDateTime completeBy,
        String customerId,
        List<Line> lines,
        @JsonbProperty("heartbeat") Duration heartbeatInterval,
        Map<String, String> events,
        String trace) implements AgentRequest {

    /** What the agent API promises of lines and events: never null, not modifiable, however the JSON read. */
    public AttemptRequest {
        lines = lines == null ? List.of() : List.copyOf(lines);
        events = events == null ? Map.of() : Map.copyOf(events);
    }

    public record Line(String sku, int quantity) implements AgentRequest.Line {
    }

    @Override
    @JsonbTransient
    public Optional<Duration> heartbeat() {
        return Optional.ofNullable(heartbeatInterval);
    }

    public static String idempotencyKey(String orderId, String operation) {
        return orderId + ":" + operation;
    }
}
