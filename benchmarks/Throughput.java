/*
 * Throughput benchmark: submits N orders over HTTP with C concurrent clients against a running stack
 * (./run), then waits until every order is final, and prints submit rate, end-to-end orders/s and the
 * submit→final latency percentiles. Single-file program, JDK only:
 *
 *   java benchmarks/Throughput.java [baseUrl=http://localhost:8080] [orders=2000] [clients=16]
 *        [simulator=http://localhost:8090] [effectsPerOrder=3]
 *
 * It calls the API as OVERSEER_USER / OVERSEER_PASSWORD (environment; default demo/demo, the local user
 * ./run creates), who needs the roles submitter and viewer.
 *
 * It measures the whole pipeline (HTTP, PostgreSQL, Artemis, agent, simulator) on this machine; compare
 * figures as ratios within one run, not across machines.
 */
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Throughput {

    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern APPLIED = Pattern.compile("\"applied\"\\s*:\\s*(\\d+)");
    private static final Pattern STATE = Pattern.compile("\"processState\"\\s*:\\s*\"([A-Za-z]+)\"");
    private static final String AUTHORIZATION = "Basic " + java.util.Base64.getEncoder().encodeToString(
            (env("OVERSEER_USER", "demo") + ":" + env("OVERSEER_PASSWORD", "demo"))
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://localhost:8080";
        int orders = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        String simulator = args.length > 3 ? args[3] : "http://localhost:8090";
        // Effects one order applies at the simulator: one per step of the default workflow.
        int effectsPerOrder = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        long baseline = applied(simulator);
        Map<String, Long> submittedAt = new ConcurrentHashMap<>();

        ExecutorService pool = Executors.newFixedThreadPool(clients);
        // 1 order in 20 is watched for submit→final latency, from the moment it is accepted.
        List<String> sample = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger sampleTicket = new java.util.concurrent.atomic.AtomicInteger();
        Map<String, Long> finalAt = new ConcurrentHashMap<>();
        var watcher = Executors.newSingleThreadScheduledExecutor();
        watcher.scheduleWithFixedDelay(() -> {
            for (String id : sample) {
                try {
                    if (!finalAt.containsKey(id) && isFinal(base, id)) {
                        finalAt.put(id, System.nanoTime());
                    }
                } catch (Exception e) {
                    // the next round asks again
                }
            }
        }, 20, 20, java.util.concurrent.TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            String body = "{\"customerId\":\"bench-" + i + "\",\"items\":[{\"sku\":\"B-1\",\"quantity\":1}]}";
            futures.add(pool.submit(() -> {
                HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/api/orders"))
                        .header("Content-Type", "application/json").header("Authorization", AUTHORIZATION).POST(HttpRequest.BodyPublishers.ofString(body)));
                if (response.statusCode() != 202) {
                    throw new IllegalStateException("submit answered " + response.statusCode() + ": " + response.body());
                }
                Matcher m = ORDER_ID.matcher(response.body());
                m.find();
                submittedAt.put(m.group(1), System.nanoTime());
                if (sampleTicket.getAndIncrement() % 20 == 0) {
                    sample.add(m.group(1));
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        double submitSeconds = (System.nanoTime() - start) / 1e9;

        // Progress is read from the simulator's counter (one cheap GET), not by polling every order, which
        // would load the server it measures.
        List<String> ids = new ArrayList<>(submittedAt.keySet());
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        long appliedAt = 0;
        while (System.nanoTime() < deadline && (appliedAt == 0 || finalAt.size() < sample.size())) {
            if (appliedAt == 0 && applied(simulator) - baseline >= (long) orders * effectsPerOrder) {
                appliedAt = System.nanoTime();
            }
            Thread.sleep(20);
        }
        watcher.shutdownNow();
        long processed = 0;
        long errors = 0;
        for (String id : ids) {
            String state = state(base, id);
            processed += state.equals("Processed") ? 1 : 0;
            errors += state.equals("Error") ? 1 : 0;
        }
        double totalSeconds = ((appliedAt == 0 ? System.nanoTime() : appliedAt) - start) / 1e9;
        List<Long> latencies = new ArrayList<>();
        finalAt.forEach((id, at) -> latencies.add((at - submittedAt.get(id)) / 1_000_000));
        Collections.sort(latencies);
        pool.shutdownNow();
        System.out.printf("orders=%d clients=%d%n", orders, clients);
        System.out.printf("submit: %.1f s, %.0f orders/s%n", submitSeconds, orders / submitSeconds);
        System.out.printf("end-to-end (first submit to last effect applied): %.1f s, %.0f orders/s; afterwards %d Processed, %d Error%n",
                totalSeconds, orders / totalSeconds, processed, errors);
        System.out.printf("submit->final latency ms, %d-order sample: p50=%d p90=%d p99=%d max=%d%n", latencies.size(),
                pct(latencies, 50), pct(latencies, 90), pct(latencies, 99), latencies.get(latencies.size() - 1));
    }

    private static long applied(String simulator) throws Exception {
        Matcher m = APPLIED.matcher(send(HttpRequest.newBuilder(URI.create(simulator + "/stats")).GET()).body());
        m.find();
        return Long.parseLong(m.group(1));
    }

    private static String state(String base, String id) throws Exception {
        Matcher m = STATE.matcher(send(HttpRequest.newBuilder(URI.create(base + "/api/orders/" + id))
                .header("Authorization", AUTHORIZATION).GET()).body());
        return m.find() ? m.group(1) : "unknown";
    }

    private static boolean isFinal(String base, String id) throws Exception {
        String state = state(base, id);
        return state.equals("Processed") || state.equals("Error");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    private static long pct(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
