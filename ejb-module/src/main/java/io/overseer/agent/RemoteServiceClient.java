package io.overseer.agent;

import io.overseer.platform.Json;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * One HTTP call to the remote service. The call's timeout is whatever is left of the attempt's
 * deadline, so an agent never waits past its complete-by for an answer.
 */
@ApplicationScoped
public class RemoteServiceClient {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    @Inject
    AgentSettings settings;

    public CallResult call(AgentRequest request, Duration timeout) {
        HttpRequest httpRequest = HttpRequest.newBuilder(settings.operationUri(request.operation()))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", request.idempotencyKey())
                .header("X-Complete-By", request.completeBy().toInstant().toString())
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of(
                        "orderId", request.orderId(),
                        "payload", Map.of("customerId", request.customerId(), "lines", request.lines())))))
                .build();
        try {
            HttpResponse<String> response = http.send(httpRequest, HttpResponse.BodyHandlers.ofString());
            return CallResult.ofStatus(response.statusCode(), response.body());
        } catch (IOException e) {
            return CallResult.transientFault(e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CallResult.transientFault("interrupted");
        }
    }
}
