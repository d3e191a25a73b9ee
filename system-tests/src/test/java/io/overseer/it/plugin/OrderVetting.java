package io.overseer.it.plugin;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * A coded agent whose service refuses every order and says why at length, as a rules engine listing each
 * rule that failed might: the "vetted" workflow's "vet-order" operation. Nothing bounds what a coded agent
 * may say; the state store must keep the refusal however long it is.
 */
@ApplicationScoped
public class OrderVetting implements RemoteService {

    public static final String REFUSAL = refusal();

    private static String refusal() {
        StringBuilder text = new StringBuilder("vetting refused the order:");
        for (int rule = 1; text.length() < 5000; rule++) {
            text.append(" rule ").append(rule).append(" (\"sanctions list\") matched;");
        }
        return text.toString();
    }

    @Override
    public String name() {
        return "order-vetting";
    }

    @Override
    public boolean performs(String operation) {
        return "vet-order".equals(operation);
    }

    @Override
    public CallResult call(AgentRequest request, Duration timeout) {
        return CallResult.refused(REFUSAL);
    }
}
