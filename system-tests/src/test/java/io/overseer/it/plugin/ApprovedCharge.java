package io.overseer.it.plugin;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * A coded agent that acts on an external event's body: it charges an "approved" order only if the
 * approval the order received carries {@code "approvedBy"}, which it names in its answer. Any other
 * approval — or none reaching it — is refused, and the order is compensated.
 */
@ApplicationScoped
public class ApprovedCharge implements RemoteService {

    @Override
    public String name() {
        return "approved-charge";
    }

    @Override
    public boolean performs(String operation) {
        return "charge-approved".equals(operation);
    }

    @Override
    public CallResult call(AgentRequest request, Duration timeout) {
        String approval = request.events() == null ? null : request.events().get("approval");
        if (approval == null || !approval.contains("\"approvedBy\"")) {
            return CallResult.refused("no approval with approvedBy reached the agent: " + request.events());
        }
        return CallResult.success("charged on " + approval);
    }
}
