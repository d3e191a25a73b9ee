package com.example.orders.screening;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The team's coded agent: the workflow operation {@code screen-order} is a screening by the team's own
 * {@link ScreeningClient}. Overseer finds it at deployment (an {@code @ApplicationScoped} {@link RemoteService}
 * in a bean archive) and sends it every {@code screen-order} step, with the deadline, retries, circuit breaker
 * and fencing around each call; this class only classifies the client's answers:
 * <ul>
 *   <li>cleared: success;</li>
 *   <li>rejected: a refusal (the order is not retried, its earlier steps are compensated);</li>
 *   <li>the service unavailable: a transient fault, retried within the attempt's deadline;</li>
 *   <li>the service refusing the request itself: a refusal too, since asking again cannot help — with its
 *       reason in the order's history for whoever looks.</li>
 * </ul>
 */
@ApplicationScoped
public class FraudScreeningAgent implements RemoteService {

    /** The workflow operation this agent performs (config/workflows.json). */
    public static final String OPERATION = "screen-order";

    @Inject
    @ConfigProperty(name = "example.screening.url")
    String screeningUrl;

    private ScreeningClient client;

    @PostConstruct
    void connect() {
        client = new ScreeningClient(URI.create(screeningUrl));
    }

    @Override
    public String name() {
        return "fraud-screening";
    }

    @Override
    public boolean performs(String operation) {
        return OPERATION.equals(operation);
    }

    @Override
    public CallResult call(AgentRequest request, Duration timeout) {
        try {
            return switch (client.screen(request.orderId(), request.customerId(), request.idempotencyKey(), timeout)) {
                case CLEARED -> CallResult.success("screening cleared the order");
                case REJECTED -> CallResult.refused("screening rejected the order");
            };
        } catch (ScreeningClient.ScreeningUnavailable e) {
            return CallResult.transientFault(e.getMessage());
        } catch (IllegalStateException e) {
            return CallResult.refused(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CallResult.transientFault("interrupted");
        }
    }
}
