package io.overseer.bench.ceilings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.bench.peers.Cli;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * REST submission one order per request against batches of {@value #BATCH} per request
 * ({@code POST /api/orders/batch}), in the same run, with the same clients, on the running stack: what the
 * issue's target (a batch ≥ 10× single) is measured by. Orders delayed 300 days, as ContainerFloor's delayed
 * submission: stored, not processed, so the figure is the submission's own, apart from the processing that
 * would compete with it.
 *
 * <ul>
 *   <li>{@code submission.rest.single}: {@code POST /api/orders}, one order each, orders/s;</li>
 *   <li>{@code submission.rest.batch100}: {@code POST /api/orders/batch} of {@value #BATCH} orders, orders/s;</li>
 *   <li>{@code submission.rest.batch100.keyed}: the same, each order with its own idempotencyKey (the batch's
 *   keys claimed in one statement);</li>
 *   <li>{@code submission.rest.batch100-vs-single}: the second ÷ the first.</li>
 * </ul>
 * Each runs for {@code --seconds} untimed (the JIT), then as long again measured, with the server's CPU-ms
 * per order. An answer other than 202 (single) or 200 with every order accepted (batch) fails the program.
 * The delayed orders stay Pending: run this last, on a stack that is thrown away afterwards.
 *
 * <pre>
 * SubmissionBatches --url http://127.0.0.1:P --user U --password PW --server-pid PID [--seconds 10] [--clients 32]
 * </pre>
 */
public final class SubmissionBatches {

    static final int BATCH = 100;
    private static final Set<String> ARGS = Set.of("url", "user", "password", "server-pid", "seconds", "clients");
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AtomicLong keys = new AtomicLong();
    private final String run = Long.toString(System.currentTimeMillis(), 36);

    public static void main(String[] args) {
        Cli.run("SubmissionBatches", () -> new SubmissionBatches().run(Cli.parse(args, ARGS)));
    }

    /** What one request is: its body for the n-th request, its path, and how many orders it carries. */
    private record Kind(String name, String path, int orders, IntFunction<String> body) {
    }

    private void run(Cli cli) throws Exception {
        System.setProperty("jdk.httpclient.keepalive.timeout", "10"); // as the bench's own client
        String url = cli.required("url");
        String auth = "Basic " + Base64.getEncoder().encodeToString(
                (cli.required("user") + ":" + cli.required("password")).getBytes(StandardCharsets.UTF_8));
        long pid = Long.parseLong(cli.required("server-pid"));
        int seconds = cli.getInt("seconds", 10);
        int clients = cli.getInt("clients", 32);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        String notBefore = Instant.now().plus(Duration.ofDays(300)).toString();
        List<Kind> kinds = List.of(
                new Kind("submission.rest.single", "/api/orders", 1, n -> order(notBefore, null)),
                new Kind("submission.rest.batch100", "/api/orders/batch", BATCH, n -> batch(notBefore, false)),
                new Kind("submission.rest.batch100.keyed", "/api/orders/batch", BATCH, n -> batch(notBefore, true)));
        for (Kind kind : kinds) {
            load(kind, url, auth, client, pid, seconds, clients); // untimed: the JIT
        }
        double single = 0;
        for (Kind kind : kinds) {
            double[] r = load(kind, url, auth, client, pid, seconds, clients);
            Map<String, Object> result = Cli.result(kind.name(), "orders/s", r[0]);
            result.put("answers", (long) r[1]);
            result.put("serverCpuMsPerOrder", Cli.round(r[2]));
            result.put("clients", clients);
            result.put("seconds", seconds);
            Cli.print(result);
            if (kind.orders() == 1) {
                single = r[0];
            } else if (!kind.name().endsWith(".keyed")) {
                Map<String, Object> ratio = Cli.result("submission.rest.batch100-vs-single", "×", r[0] / single);
                ratio.put("clients", clients);
                Cli.print(ratio);
            }
        }
    }

    private String order(String notBefore, String key) {
        return "{" + (key == null ? "" : "\"idempotencyKey\":\"" + key + "\",") + "\"customerId\":\"c-batch-bench\","
                + "\"items\":[{\"sku\":\"B-1\",\"quantity\":1}],\"notBefore\":\"" + notBefore + "\"}";
    }

    private String batch(String notBefore, boolean keyed) {
        StringBuilder body = new StringBuilder("{\"orders\":[");
        for (int i = 0; i < BATCH; i++) {
            body.append(i == 0 ? "" : ",").append(order(notBefore, keyed ? run + "-" + keys.incrementAndGet() : null));
        }
        return body.append("]}").toString();
    }

    /** Orders per second, answers, and server CPU-ms per order over {@code seconds} of {@code clients} loops. */
    private double[] load(Kind kind, String url, String auth, HttpClient client, long pid, int seconds, int clients)
            throws Exception {
        ClosedLoop.Measured m = ClosedLoop.run(pid, seconds, clients, () -> {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url + kind.path())).header("Authorization", auth)
                    .header("Content-Type", "application/json").timeout(TIMEOUT)
                    .POST(HttpRequest.BodyPublishers.ofString(kind.body().apply(0))).build();
            check(kind, client.send(request, HttpResponse.BodyHandlers.ofString()));
            return null;
        });
        double orders = (double) m.answers() * kind.orders();
        return new double[] {orders / m.seconds(), m.answers(), m.serverCpuMs() / orders};
    }

    private static void check(Kind kind, HttpResponse<String> response) throws Exception {
        if (kind.orders() == 1) {
            if (response.statusCode() != 202) {
                throw new IllegalStateException("POST /api/orders answered " + response.statusCode() + ": " + response.body());
            }
            return;
        }
        JsonNode answer = response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        if (answer == null || answer.path("accepted").asInt() != kind.orders() || answer.path("refused").asInt() != 0) {
            throw new IllegalStateException("POST /api/orders/batch answered " + response.statusCode() + ": "
                    + response.body().substring(0, Math.min(500, response.body().length())));
        }
    }
}
