package io.overseer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The remote-service simulator's GET /stats, read as a user would to see that nothing was applied twice; and its
 * faults (PUT and DELETE /faults), which the bulk phase uses to put orders into Error and to heal them.
 */
final class Simulator {

    /**
     * {@code serviceCalls} and {@code serviceMs}: the simulator's own time (measured in its handler), summed over
     * its operations since its start or last clear.
     */
    record Stats(long applied, long appliedTwice, long replays, long serviceCalls, double serviceMs) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final String url;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Simulator(String url) {
        this.url = url;
    }

    /** PUT /faults: every call of {@code operation} meets {@code mode} (none, latency, error, hang, fatal). */
    void fault(String operation, String mode) throws Exception {
        send(HttpRequest.newBuilder(URI.create(url + "/faults")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"operation\":\"" + operation + "\",\"mode\":\"" + mode
                        + "\",\"rate\":1.0}")).build(), "PUT /faults");
    }

    /** DELETE /faults: every fault rule gone. */
    void heal() throws Exception {
        send(HttpRequest.newBuilder(URI.create(url + "/faults")).timeout(Duration.ofSeconds(10)).DELETE().build(),
                "DELETE /faults");
    }

    private void send(HttpRequest request, String what) throws Exception {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("simulator " + what + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    Stats stats() throws Exception {
        HttpResponse<String> r;
        try {
            r = http.send(HttpRequest.newBuilder(URI.create(url + "/stats"))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the simulator at " + url + " does not answer (" + e
                    + "): did its process die? See data/logs/simulator.log of the run");
        }
        if (r.statusCode() != 200) {
            throw new IllegalStateException("simulator /stats answered " + r.statusCode());
        }
        JsonNode n = JSON.readTree(r.body());
        long calls = 0;
        double ms = 0;
        for (JsonNode op : n.path("serviceTime")) {
            calls += op.path("count").asLong();
            ms += op.path("totalMs").asDouble();
        }
        return new Stats(n.path("applied").asLong(), n.path("appliedTwice").asLong(), n.path("replays").asLong(), calls, ms);
    }
}
