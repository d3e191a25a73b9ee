package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.overseer.chaos.History.Outcome;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A 404 is a refusal when the application says it, not when a server without the application says it while
 * the balancer had it out of rotation (a real balancer would have answered 503 there).
 */
class RestSubmitterTest {

    private static final PlannedOrder ORDER = new PlannedOrder(0, PlannedOrder.Channel.REST, "t-k0", "t-c0", false, false);

    @Test
    void theServersOwn404PageFromAnInstanceOutOfRotationIsRetried() throws Exception {
        AtomicInteger posts = new AtomicInteger();
        HttpServer appLess = instance(503, () -> posts.incrementAndGet() <= 2
                ? new Reply(404, "text/html", "<html><title>Payara Micro - Error report</title></html>")
                : new Reply(202, "application/json", "{\"orderId\":\"o-1\"}"));
        try (Balancer balancer = new Balancer(List.of(url(appLess)))) {
            History.Submission s = new RestSubmitter(balancer).submit(ORDER);
            assertEquals(Outcome.ACCEPTED, s.outcome());
            assertEquals(List.of("o-1"), s.answeredOrderIds());
            assertEquals(3, posts.get());
        } finally {
            appLess.stop(0);
        }
    }

    @Test
    void theApplications404IsARefusalInRotationOrNot() throws Exception {
        for (int ready : new int[] {200, 503}) {
            HttpServer app = instance(ready, () -> new Reply(404, "application/problem+json", "{\"status\":404}"));
            try (Balancer balancer = new Balancer(List.of(url(app)))) {
                assertEquals(Outcome.REFUSED, new RestSubmitter(balancer).submit(ORDER).outcome(), "ready " + ready);
            } finally {
                app.stop(0);
            }
        }
    }

    private record Reply(int status, String contentType, String body) {
    }

    private interface Replies {
        Reply next();
    }

    /** An instance whose readiness answers {@code ready} and whose POST /api/orders answers {@code replies}. */
    private static HttpServer instance(int ready, Replies replies) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/health/ready", exchange -> {
            exchange.sendResponseHeaders(ready, -1);
            exchange.close();
        });
        s.createContext("/api/orders", exchange -> {
            exchange.getRequestBody().readAllBytes();
            Reply r = replies.next();
            byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", r.contentType());
            exchange.sendResponseHeaders(r.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        s.start();
        return s;
    }

    private static String url(HttpServer s) {
        return "http://127.0.0.1:" + s.getAddress().getPort();
    }
}
