package io.overseer.scheduler;

import io.overseer.agent.AgentRequest;
import io.overseer.messaging.Courier;
import io.overseer.messaging.Destinations;
import io.overseer.messaging.Parcel;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.OrderContent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;

/**
 * The scheduler's side of the request/reply channel to the agents. A request leaves after the claiming
 * transaction commits, so an agent never sees an attempt the state store does not record; requests for
 * one operation that wait together leave as one message, which one agent delivery works as a batch. The
 * message expires with the latest complete-by in it: a request nobody started in time is dropped by the
 * broker, not worked late (the agent checks each request's own deadline too).
 */
@ApplicationScoped
public class AgentGateway {

    @Inject
    Courier courier;

    public void request(Attempt attempt, OrderContent order) {
        AgentRequest request = new AgentRequest(attempt.orderId(), attempt.epoch(), attempt.stepSeq(), attempt.token(),
                attempt.operation(), AgentRequest.idempotencyKey(attempt.orderId(), attempt.operation()),
                attempt.completeBy(), order.customerId(),
                order.lines().stream().map(line -> new AgentRequest.Line(line.sku(), line.quantity())).toList(),
                attempt.heartbeat(), attempt.events());
        courier.send(Parcel.batched(Destinations.AGENT_REQUESTS, attempt.operation(), request,
                Map.of("operation", attempt.operation()), attempt.completeBy()));
    }
}
