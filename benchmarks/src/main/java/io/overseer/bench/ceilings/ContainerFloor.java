package io.overseer.bench.ceilings;

import io.overseer.bench.peers.Cli;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The application server's own floor under load, measured on the running stack with the same HTTP client
 * and clients as the REST phases: what the container charges before Overseer's work begins, so that the
 * REST figures can be read against it rather than only against PostgreSQL's commits.
 *
 * <ul>
 *   <li>{@code ceiling.container.authenticated-get}: {@code GET /api/orders/{random id}}, answered 404 (a
 *   problem body) — one BASIC-authenticated JAX-RS request with one primary-key read, no transaction
 *   that writes. No Overseer design can answer a REST submission for less.</li>
 *   <li>{@code ceiling.container.unauthenticated-get}: the same {@code GET /api/orders/{random id}} without
 *   credentials, answered 401 (a problem body, from the application's error-page servlet) —
 *   the same listener, filter chain and security-constraint match, refused before any login: no realm, no
 *   JAX-RS, no read. Every path a caller may reach without login under /api is this one (web.xml closes all of
 *   /api); /health/live, the other request served without login, runs the server's health servlet and the
 *   application's liveness checks, a different path, and is measured beside it for reference.</li>
 *   <li>{@code ceiling.container.authenticated-refused} (with {@code --viewer-user}): a user without the
 *   operator role, logged in, asking {@code GET /api/operator/orders/{random id}}: answered 403 by the container
 *   after the login, through the same error page as the 401. The two differ by the login alone (the realm's
 *   password check, the caller's principal and groups, the role check): {@code (refused − unauthenticated) ÷
 *   authenticated} is the report's login share, and {@code authenticated − refused} is the JAX-RS dispatch, the
 *   read and the 404's problem.</li>
 *   <li>{@code ceiling.container.health-live}: {@code GET /health/live} without credentials, answered 200.</li>
 *   <li>{@code ceiling.container.delayed-submit}: {@code POST /api/orders} with a {@code notBefore} 300 days
 *   ahead — the whole submission (validation, the transaction that stores the order, 202), with nothing
 *   processed afterwards. The REST submission's own price, apart from the processing that competes with it.</li>
 * </ul>
 * Each runs for {@code --seconds} untimed (the JIT), then as long again measured; the value is answers per
 * second, with the server's CPU-ms per answer (utime + stime of {@code --server-pid}). A wrong status fails
 * the program. The delayed orders stay Pending until their {@code notBefore}: run this last, on a stack
 * that is thrown away afterwards.
 *
 * <pre>
 * ContainerFloor --url http://127.0.0.1:P --user U --password PW --server-pid PID [--viewer-user V --viewer-password VP]
 *                [--seconds 10] [--clients 32]
 * </pre>
 */
public final class ContainerFloor {

    private static final Set<String> ARGS = Set.of("url", "user", "password", "viewer-user", "viewer-password",
            "server-pid", "seconds", "clients");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    public static void main(String[] args) {
        Cli.run("ContainerFloor", () -> new ContainerFloor().run(Cli.parse(args, ARGS)));
    }

    private void run(Cli cli) throws Exception {
        // As the bench's own client: drop a connection idle for 10 s (the server closes them at 30 s).
        System.setProperty("jdk.httpclient.keepalive.timeout", "10");
        String url = cli.required("url");
        String auth = "Basic " + Base64.getEncoder().encodeToString(
                (cli.required("user") + ":" + cli.required("password")).getBytes(StandardCharsets.UTF_8));
        long pid = Long.parseLong(cli.required("server-pid"));
        int seconds = cli.getInt("seconds", 10);
        int clients = cli.getInt("clients", 32);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        String notBefore = Instant.now().plus(Duration.ofDays(300)).toString();
        String body = "{\"customerId\":\"c-floor\",\"items\":[{\"sku\":\"B-1\",\"quantity\":1}],\"notBefore\":\"" + notBefore + "\"}";

        measure("ceiling.container.authenticated-get", "requests/s", 404, client, pid, seconds, clients,
                () -> HttpRequest.newBuilder(URI.create(url + "/api/orders/" + UUID.randomUUID()))
                        .header("Authorization", auth).timeout(TIMEOUT).GET().build());
        measure("ceiling.container.unauthenticated-get", "requests/s", 401, client, pid, seconds, clients,
                () -> HttpRequest.newBuilder(URI.create(url + "/api/orders/" + UUID.randomUUID()))
                        .timeout(TIMEOUT).GET().build());
        if (!cli.get("viewer-user", "").isEmpty()) {
            String viewer = "Basic " + Base64.getEncoder().encodeToString((cli.required("viewer-user") + ":"
                    + cli.required("viewer-password")).getBytes(StandardCharsets.UTF_8));
            measure("ceiling.container.authenticated-refused", "requests/s", 403, client, pid, seconds, clients,
                    () -> HttpRequest.newBuilder(URI.create(url + "/api/operator/orders/" + UUID.randomUUID()))
                            .header("Authorization", viewer).timeout(TIMEOUT).GET().build());
        }
        measure("ceiling.container.health-live", "requests/s", 200, client, pid, seconds, clients,
                () -> HttpRequest.newBuilder(URI.create(url + "/health/live")).timeout(TIMEOUT).GET().build());
        measure("ceiling.container.delayed-submit", "orders/s", 202, client, pid, seconds, clients,
                () -> HttpRequest.newBuilder(URI.create(url + "/api/orders")).header("Authorization", auth)
                        .header("Content-Type", "application/json").timeout(TIMEOUT)
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private void measure(String name, String unit, int expected, HttpClient client, long pid, int seconds, int clients,
                         Supplier<HttpRequest> request) throws Exception {
        load(expected, client, pid, seconds, clients, request); // untimed: the JIT
        double[] r = load(expected, client, pid, seconds, clients, request);
        Map<String, Object> result = Cli.result(name, unit, r[0]);
        result.put("answers", (long) r[1]);
        result.put("serverCpuMsPerAnswer", Math.round(r[2] * 1000) / 1000.0);
        result.put("clients", clients);
        result.put("seconds", seconds);
        result.put("status", expected);
        Cli.print(result);
    }

    /** Answers per second, answers, and server CPU-ms per answer over {@code seconds} of {@code clients} loops. */
    private double[] load(int expected, HttpClient client, long pid, int seconds, int clients,
                          Supplier<HttpRequest> request) throws Exception {
        ClosedLoop.Measured m = ClosedLoop.run(pid, seconds, clients, () -> {
            HttpRequest sent = request.get();
            HttpResponse<String> response = client.send(sent, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != expected) {
                throw new IllegalStateException(sent.method() + " answered " + response.statusCode()
                        + ", expected " + expected + ": " + response.body());
            }
            return null;
        });
        return new double[] {m.answers() / m.seconds(), m.answers(), m.serverCpuMs() / m.answers()};
    }
}
