package io.overseer.chaos;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * An instance's readiness as a load balancer sees it: GET /health/ready answers 200 within 10 s (a common
 * load-balancer probe timeout). 5 s was stricter than two loaded cores: a smoke run skipped an app-kill
 * because the probe timed out while a slower client got 200 from both instances.
 */
final class Health {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Health() {
    }

    static boolean ready(String baseUrl) {
        return ready(baseUrl, Duration.ofSeconds(10));
    }

    static boolean ready(String baseUrl, Duration timeout) {
        try {
            HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/health/ready"))
                    .timeout(timeout).GET().build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;
        }
    }
}
