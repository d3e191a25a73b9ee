package io.overseer.it.plugin;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A coded agent, as a user writes one (docs/agents.md links it as the example): the workflow operation "screen-order" is
 * the screening service's "fraud-screening" call, whose 422 means the order is rejected for good. The
 * screening service is played by the simulator.
 */
@ApplicationScoped
public class FraudScreening implements RemoteService {

    public static final String REMOTE_OPERATION = "fraud-screening";

    @Inject
    @ConfigProperty(name = "overseer.remote-service.url")
    String screeningUrl;

    private final HttpClient http = HttpClient.newHttpClient();

    @Override
    public String name() {
        return "fraud-screening";
    }

    @Override
    public boolean performs(String operation) {
        return "screen-order".equals(operation);
    }

    @Override
    public CallResult call(AgentRequest request, Duration timeout) {
        HttpRequest screening = HttpRequest.newBuilder(URI.create(screeningUrl + "/operations/" + REMOTE_OPERATION))
                .timeout(timeout)
                .header("Idempotency-Key", request.idempotencyKey())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"orderId\":\"" + request.orderId() + "\"}"))
                .build();
        try {
            HttpResponse<String> response = http.send(screening, HttpResponse.BodyHandlers.ofString());
            return switch (response.statusCode()) {
                case 200 -> CallResult.success(response.body());
                case 422 -> CallResult.refused("screening rejected the order");
                default -> CallResult.transientFault("screening answered " + response.statusCode());
            };
        } catch (IOException e) {
            return CallResult.transientFault(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CallResult.transientFault("interrupted");
        }
    }
}
