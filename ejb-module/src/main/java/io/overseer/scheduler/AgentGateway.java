package io.overseer.scheduler;

import io.overseer.agent.AgentRequest;
import io.overseer.messaging.Destinations;
import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.CustomerOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import java.time.Duration;

/**
 * The scheduler's side of the request/reply channel to the agents. The request leaves inside the
 * claiming transaction, so an agent never sees an attempt the state store does not record. It expires
 * with its complete-by: a request nobody started in time is dropped by the broker, not worked late.
 */
@ApplicationScoped
public class AgentGateway {

    @Inject
    @JMSConnectionFactory(Destinations.CONNECTION_FACTORY)
    JMSContext jms;

    @Inject
    Clocks clocks;

    public void request(Attempt attempt, CustomerOrder order) {
        AgentRequest request = new AgentRequest(attempt.orderId(), attempt.epoch(), attempt.stepSeq(),
                attempt.operation(), AgentRequest.idempotencyKey(attempt.orderId(), attempt.operation()),
                attempt.completeBy(), order.customerId(),
                order.lines().stream().map(line -> new AgentRequest.Line(line.sku(), line.quantity())).toList());
        long ttl = Duration.between(clocks.now(), attempt.completeBy()).toMillis();
        jms.createProducer()
                .setTimeToLive(Math.max(ttl, 1))
                .setProperty(Destinations.ORDER_ID, attempt.orderId())
                .setProperty("operation", attempt.operation())
                .send(jms.createQueue(Destinations.AGENT_REQUESTS), Json.write(request));
    }
}
