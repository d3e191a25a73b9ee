package io.overseer.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * The agents' own timing of their remote calls, read from the application's {@code GET /api/metrics}
 * (the timer {@code overseer_agent_call_duration_seconds}, summed over operations) as the demo user. Only
 * for the hop table: a reading that fails is "unknown" (null), never a failed run.
 */
final class AgentCalls {

    /** Calls and their summed seconds since the server started. */
    record Totals(double calls, double seconds) {
    }

    private static final String SUM = "overseer_agent_call_duration_seconds_sum";
    private static final String COUNT = "overseer_agent_call_duration_seconds_count";
    private final String url;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    AgentCalls(String baseUrl, String user, String password) {
        this.url = baseUrl + "/api/metrics";
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The totals now, or null if the metrics could not be read. */
    Totals read() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .header("Authorization", authorization).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? parse(r.body()) : null;
        } catch (Exception e) {
            Log.info("agent call timings not read from " + url + ": " + e);
            return null;
        }
    }

    /** Sums the timer's sum and count lines of every operation in a Prometheus text exposition. */
    static Totals parse(String exposition) {
        double calls = 0;
        double seconds = 0;
        for (String line : exposition.split("\n")) {
            if (line.startsWith(SUM) || line.startsWith(COUNT)) {
                int space = line.lastIndexOf(' ');
                double value = Double.parseDouble(line.substring(space + 1).trim());
                if (line.startsWith(SUM)) {
                    seconds += value;
                } else {
                    calls += value;
                }
            }
        }
        return new Totals(calls, seconds);
    }

    /** Mean milliseconds per call between two readings; NaN if either is unknown or no call was made. */
    static double meanMs(Totals before, Totals after) {
        if (before == null || after == null || after.calls() - before.calls() <= 0) {
            return Double.NaN;
        }
        return (after.seconds() - before.seconds()) / (after.calls() - before.calls()) * 1000;
    }
}
