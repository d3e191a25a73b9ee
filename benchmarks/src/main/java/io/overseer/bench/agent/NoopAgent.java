package io.overseer.bench.agent;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * The benchmark's coded agent: performs the operation {@code noop} by doing nothing and succeeding at
 * once, so a one-step workflow of it measures Overseer's own cost per task (claim, request, reply, state
 * transitions) and nothing else. Packaged only into the benchmark's copy of the WAR, never the product.
 */
@ApplicationScoped
public class NoopAgent implements RemoteService {

    public static final String OPERATION = "noop";

    @Override
    public String name() {
        return "bench-noop";
    }

    @Override
    public boolean performs(String operation) {
        return OPERATION.equals(operation);
    }

    @Override
    public CallResult call(AgentRequest request, Duration timeout) {
        return CallResult.success("noop");
    }
}
