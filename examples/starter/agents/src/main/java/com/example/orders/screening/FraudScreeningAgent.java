package com.example.orders.screening;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.Heartbeats;
import io.overseer.agent.api.RemoteService;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The team's coded agent: the workflow operation {@code screen-order} is a screening by the team's own
 * {@link ScreeningClient}. Overseer finds it at deployment (an {@code @ApplicationScoped} {@link RemoteService}
 * in a bean archive) and sends it every {@code screen-order} step, with the deadline, retries, circuit breaker
 * and fencing around each call; this class classifies the client's answers:
 * <ul>
 *   <li>cleared: success;</li>
 *   <li>rejected: a refusal (the order is not retried, its earlier steps are compensated);</li>
 *   <li>the service unavailable: a transient fault, retried within the attempt's deadline;</li>
 *   <li>the service refusing the request itself: a refusal too, since asking again cannot help — with its
 *       reason in the order's history for whoever looks.</li>
 * </ul>
 * A screening can take long, so while it waits the agent reports that it is alive ({@link Heartbeats}; the
 * step declares a heartbeat in config/workflows.json): a screening whose agent died is retried after the
 * heartbeat, not the whole deadline. If the attempt was taken over meanwhile, it stops waiting.
 */
@ApplicationScoped
public class FraudScreeningAgent implements RemoteService {

    /** The workflow operation this agent performs (config/workflows.json). */
    public static final String OPERATION = "screen-order";
    /** How often a long screening reports; well under the step's heartbeat. */
    private static final Duration BEAT = Duration.ofSeconds(1);

    @Inject
    @ConfigProperty(name = "example.screening.url")
    String screeningUrl;

    /** By its name: this library's beans do not see Overseer's EJB module through CDI. */
    @EJB(lookup = Heartbeats.JNDI_NAME)
    Heartbeats heartbeats;

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
        CompletableFuture<ScreeningClient.Verdict> screening =
                client.screen(request.orderId(), request.customerId(), request.idempotencyKey(), timeout);
        try {
            while (true) {
                try {
                    return switch (screening.get(BEAT.toMillis(), TimeUnit.MILLISECONDS)) {
                        case CLEARED -> CallResult.success("screening cleared the order");
                        case REJECTED -> CallResult.refused("screening rejected the order");
                    };
                } catch (TimeoutException stillScreening) {
                    if (!heartbeats.beat(request)) {
                        screening.cancel(true);
                        return CallResult.transientFault("attempt taken over; stopped waiting for the screening");
                    }
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ScreeningClient.ScreeningUnavailable unavailable) {
                return CallResult.transientFault(unavailable.getMessage());
            }
            if (e.getCause() instanceof ScreeningClient.RequestRefused refusedRequest) {
                return CallResult.refused(refusedRequest.getMessage());
            }
            return CallResult.transientFault(String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            screening.cancel(true);
            Thread.currentThread().interrupt();
            return CallResult.transientFault("interrupted");
        }
    }
}
