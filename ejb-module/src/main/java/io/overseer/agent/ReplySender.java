package io.overseer.agent;

import io.overseer.messaging.Courier;
import io.overseer.messaging.Destinations;
import io.overseer.messaging.Parcel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;

/**
 * Sends an agent's reply to the scheduler as soon as its attempt ends; replies of attempts that end
 * together leave as one message ({@code {"batch":[reply, …]}}), applied by one scheduler in one
 * transaction. A reply is a hint like any other: if it is lost, the attempt expires and is retried under
 * the same idempotency key.
 */
@ApplicationScoped
public class ReplySender {

    @Inject
    Courier courier;

    public void send(AgentReply reply) {
        courier.send(Parcel.batched(Destinations.AGENT_REPLIES, "reply", reply, Map.of(), null));
    }
}
