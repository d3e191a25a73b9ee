package io.overseer.remoteservice;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One call's latency as the agents see it: a {@code java.net.http.HttpClient} (HTTP/1.1, one client, so
 * kept-alive pooled connections) POSTing the agents' small JSON body with their headers
 * (io.overseer.agent.HttpRemoteService), from {@code threads} callers at once, each call a new key (so each
 * one is applied and forced). Prints median, p99 and max of the client's own clock. Run by hand against a
 * simulator started as the launcher starts it; nothing asserts the figures (they depend on the machine).
 *
 * <pre>java -cp target/test-classes io.overseer.remoteservice.CallLatency http://127.0.0.1:8090 [threads] [calls per thread]</pre>
 */
public final class CallLatency {

    private CallLatency() {
    }

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://127.0.0.1:8090";
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        String run = Long.toString(System.nanoTime(), 36);
        measure(http, base, threads, calls / 4, run + "-warm"); // connections, JIT on both sides
        List<Double> ms = measure(http, base, threads, calls, run);
        Collections.sort(ms);
        System.out.printf(Locale.ROOT, "%d callers x %d calls: median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                threads, calls, at(ms, 0.50), at(ms, 0.90), at(ms, 0.99), ms.get(ms.size() - 1));
    }

    private static List<Double> measure(HttpClient http, String base, int threads, int calls, String run)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<Double>>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String caller = run + "-" + t;
            futures.add(pool.submit(() -> {
                List<Double> out = new ArrayList<>();
                for (int i = 0; i < calls; i++) {
                    out.add(call(http, base, caller + "-" + i));
                }
                return out;
            }));
        }
        List<Double> all = new ArrayList<>();
        for (Future<List<Double>> f : futures) {
            all.addAll(f.get());
        }
        pool.shutdown();
        return all;
    }

    private static double call(HttpClient http, String base, String id) throws Exception {
        String body = "{\"orderId\":\"" + id + "\",\"payload\":{\"customerId\":\"c-" + id
                + "\",\"lines\":[{\"sku\":\"A-1\",\"quantity\":2}]}}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/operations/charge-payment"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", id + "/charge-payment")
                .header("X-Complete-By", Instant.now().plusSeconds(30).toString())
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        long t0 = System.nanoTime();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (response.statusCode() != 200) {
            throw new IllegalStateException("answered " + response.statusCode() + ": " + response.body());
        }
        return ms;
    }

    private static double at(List<Double> sorted, double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }
}
