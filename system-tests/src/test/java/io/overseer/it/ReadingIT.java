package io.overseer.it;

import static io.overseer.support.Problems.assertProblem;
import static io.overseer.support.Problems.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.EventStream;
import io.overseer.support.Poll;
import io.overseer.support.Http;
import io.overseer.support.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The read side of the API: keyset listing, live progress as Server-Sent Events, the OpenAPI document. */
class ReadingIT extends DeployedWarIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void pagesCoverEveryOrderOnceInCreationOrder() {
        String prefix = "c-list-" + UUID.randomUUID() + "-";
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            mine.add(api.submit(prefix + i));
        }

        List<JsonNode> all = listAll("api/orders?limit=200");
        List<JsonNode> small = listAll("api/orders?limit=2");

        List<String> ids = all.stream().map(o -> o.get("orderId").asText()).toList();
        assertEquals(ids, small.stream().map(o -> o.get("orderId").asText()).toList(), "page size changes nothing");
        assertEquals(ids.size(), new HashSet<>(ids).size(), "no order twice");
        assertEquals(mine, ids.stream().filter(mine::contains).toList(), "in creation order");
        assertEquals(TestStack.countOrders(), ids.size(), "every order");
        JsonNode first = all.get(ids.indexOf(mine.get(0)));
        assertEquals(prefix + 0, first.get("customerId").asText());
        assertTrue(first.has("processState") && first.has("workflow") && first.has("createdAt"), first.toString());
    }

    @Test
    void aStateFilterListsOnlyThatState() {
        String orderId = api.submit("c-list-state-" + UUID.randomUUID());
        api.awaitState(orderId, WAIT, "Processed");

        List<JsonNode> processed = listAll("api/orders?state=Processed&limit=50");

        assertTrue(processed.stream().allMatch(o -> o.get("processState").asText().equals("Processed")));
        assertTrue(processed.stream().anyMatch(o -> o.get("orderId").asText().equals(orderId)));
    }

    /** Issue 29's business attributes: kept with the order, shown with it, and a filter finds exactly those. */
    @Test
    void anAttributeFilterFindsExactlyTheMatchingOrders() {
        String region = "eu-" + UUID.randomUUID();
        List<String> matching = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            matching.add(api.submitWithAttributes("c-attr-" + i, "{\"region\":\"" + region + "\",\"channel\":\"web\"}"));
        }
        api.submitWithAttributes("c-attr-other", "{\"region\":\"us-" + region + "\",\"channel\":\"web\"}");
        api.submitWithAttributes("c-attr-none", null);

        List<String> found = listAll("api/orders?attribute=region:" + region + "&limit=2").stream()
                .map(o -> o.get("orderId").asText()).toList();
        assertEquals(matching, found, "exactly the matching orders, in creation order, across pages");
        JsonNode order = api.get(matching.get(0));
        assertEquals(region, order.get("attributes").get("region").asText(), order.toString());
        assertEquals("web", order.get("attributes").get("channel").asText(), order.toString());
        assertEquals(0, api.get(api.submitWithAttributes("c-attr-empty", null)).get("attributes").size());
    }

    @Test
    void badQueryParametersAreNamed() {
        assertEquals(List.of("limit"), fields(assertProblem(api.getRaw("api/orders?limit=0"), 400)));
        assertEquals(List.of("limit"), fields(assertProblem(api.getRaw("api/orders?limit=201"), 400)));
        assertEquals(List.of("state", "limit", "after"),
                fields(assertProblem(api.getRaw("api/orders?state=Done&limit=abc&after=not-a-cursor"), 400)));
        assertEquals(List.of("attribute"), fields(assertProblem(api.getRaw("api/orders?attribute=no-colon"), 400)));
        assertEquals(List.of("attribute"), fields(assertProblem(api.getRaw("api/orders?attribute=Region:eu"), 400)));
    }

    @Test
    void eventsStreamEveryTransitionUntilProcessedAndResume() throws Exception {
        String orderId = api.submit("c-sse-" + UUID.randomUUID());
        URI events = api.base().resolve("api/orders/" + orderId + "/events");

        EventStream.Result live = EventStream.read(events, api.credentials(), null, WAIT);

        assertEquals(200, live.status(), live.body());
        assertTrue(live.contentType().startsWith("text/event-stream"), live.contentType());
        JsonNode history = api.history(orderId);
        assertEquals(history.size(), live.events().size(), live.body());
        for (int i = 0; i < history.size(); i++) {
            EventStream.Event event = live.events().get(i);
            assertEquals(Integer.toString(i + 1), event.id());
            assertEquals("transition", event.name());
            assertEquals(history.get(i), event.json());
        }
        JsonNode last = live.events().get(live.events().size() - 1).json();
        assertNull(last.get("step").textValue(), "the stream ends with the task's own transition");
        assertEquals("Processed", last.get("to").asText());

        EventStream.Result resumed = EventStream.read(events, api.credentials(), "3", WAIT);
        assertEquals(history.size() - 3, resumed.events().size(), resumed.body());
        assertEquals("4", resumed.events().get(0).id());
    }

    /**
     * A client opens an order's stream and never reads it, on a socket with the smallest receive buffer,
     * and keeps it open while other clients follow their orders: each of them gets every event of its
     * order, to the end; and once the stalled client reads again, its own stream is all there. On
     * loopback the kernel alone buffers about 1.7 MB for such a socket before a write to it blocks (measured
     * 2026-11-23), far more than an order's events: that a blocked write holds up nobody else is shown by
     * OrderEventFeedTest and SubscriberTest, with a send that blocks as Jersey's does.
     */
    @Test
    void aClientThatStopsReadingHoldsUpNoOtherStream() throws Exception {
        String watched = api.submit("c-sse-stalled-" + UUID.randomUUID());
        try (Socket stalled = openWithoutReading(watched)) {
            List<String> followed = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                followed.add(api.submit("c-sse-reader-" + i + "-" + UUID.randomUUID()));
            }
            for (String orderId : followed) {
                EventStream.Result live = readToTheEnd(orderId, WAIT);
                assertEquals(api.history(orderId).size(), live.events().size(), live.body());
                assertEquals("Processed", live.events().get(live.events().size() - 1).json().get("to").asText());
            }
            api.awaitState(watched, WAIT, "Processed");
            stalled.setSoTimeout((int) WAIT.toMillis());
            List<EventStream.Event> late = EventStream.parse(chunkedBody(stalled.getInputStream()));
            assertEquals(api.history(watched).size(), late.size(), late.toString());
            assertEquals("Processed", late.get(late.size() - 1).json().get("to").asText());
        }
    }

    /** The body of a chunked HTTP/1.1 response, as lines, read to its last chunk. */
    private static List<String> chunkedBody(InputStream in) throws IOException {
        String status = line(in);
        assertTrue(status.startsWith("HTTP/1.1 200"), status);
        boolean chunked = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            chunked |= header.equalsIgnoreCase("Transfer-Encoding: chunked");
        }
        assertTrue(chunked, "an event stream of unknown length is chunked");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = Integer.parseInt(line(in).strip(), 16); size > 0; size = Integer.parseInt(line(in).strip(), 16)) {
            body.write(in.readNBytes(size));
            line(in);
        }
        return body.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("connection closed in the middle of a response");
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.US_ASCII).stripTrailing();
    }

    /** Opens the order's event stream over a socket that is never read, with the smallest receive buffer. */
    private Socket openWithoutReading(String orderId) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(1);
        socket.connect(new InetSocketAddress(root.getHost(), root.getPort()));
        String request = "GET " + root.resolve("api/orders/" + orderId + "/events").getRawPath() + " HTTP/1.1\r\n"
                + "Host: " + root.getHost() + ":" + root.getPort() + "\r\n"
                + "Accept: text/event-stream\r\n"
                + "Authorization: " + api.credentials().header() + "\r\n\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    private EventStream.Result readToTheEnd(String orderId, Duration timeout) throws Exception {
        try {
            return EventStream.read(api.base().resolve("api/orders/" + orderId + "/events"), api.credentials(), null,
                    timeout);
        } catch (TimeoutException e) {
            throw new AssertionError("The event stream of order " + orderId + " did not reach its end in " + timeout
                    + " while another client left its own stream unread; order now: " + api.get(orderId), e);
        }
    }

    /**
     * Password guessing is slowed (issue 16): past 10 failed logins of one user (the test servers lift the
     * per-address limit, since every test connects from 127.0.0.1) every attempt of that user gets a 429
     * problem with Retry-After, the right password too, so a guesser learns nothing while it waits; another
     * user is not held up; and once the wait is over the right password works again.
     */
    @Test
    void wrongPasswordsSlowTheNextAttemptsOfThatUserButNeverLockItOutForGood() {
        URI orders = api.base().resolve("api/orders?limit=1");
        Http.Credentials right = TestStack.credentials(TestStack.VIEWER);
        Http.Credentials wrong = new Http.Credentials(right.user(), "not-" + right.password());
        assertEquals(401, Http.get(orders, wrong).status(), "a wrong password is first just refused");
        Http.Reply held = null;
        List<Integer> statuses = new ArrayList<>();
        // A round: wrong passwords until the user waits, then at once the right one. The right one could
        // slip in just as a wait ends; the next round's wait is twice as long.
        for (int round = 0; round < 3 && (held == null || held.status() != 429); round++) {
            int status = 0;
            for (int i = 0; i < 20 && status != 429; i++) {
                status = Http.get(orders, wrong).status();
                statuses.add(status);
            }
            assertEquals(429, status, "20 wrong passwords in a row slow the next attempts: " + statuses);
            held = Http.get(orders, right);
        }
        JsonNode problem = assertProblem(held, 429);
        assertTrue(problem.get("detail").asText().contains("failed logins"), held.body());
        long wait = Long.parseLong(held.headers().firstValue("Retry-After").orElse("0"));
        assertTrue(wait >= 1 && wait <= 60, "Retry-After " + wait);

        assertEquals(200, Http.get(orders, TestStack.credentials(TestStack.OPERATOR)).status(), "another user goes on");
        Poll.until("the right password to be heard again", WAIT, () -> Http.get(orders, right).status() == 200);
        String metrics = Http.get(api.base().resolve("api/metrics"), TestStack.credentials(TestStack.OPERATOR)).body();
        assertTrue(metrics.contains("overseer_logins_refused_total{by=\"user\"}"), "refusals counted");
        assertTrue(metrics.contains("overseer_login_failures_total"), "failures counted");
    }

    /**
     * One user cannot take every event stream from the others: past its share (5 on the test servers) its
     * next stream is a 429 problem with Retry-After, counted in the metrics, while another user still
     * connects. The order watched is a delayed one, so that every stream stays open.
     */
    @Test
    void oneUserHoldsAtMostItsShareOfEventStreamsAndOthersStillConnect() throws Exception {
        String orderId = delayedOrder("c-sse-share");
        URI events = api.base().resolve("api/orders/" + orderId + "/events");
        List<java.net.http.HttpResponse<InputStream>> open = new ArrayList<>();
        try {
            for (int i = 0; i < TestStack.MAX_STREAMS_PER_USER; i++) {
                var stream = Http.client().send(Http.authorized(HttpRequest.newBuilder(events)
                        .header("Accept", "text/event-stream"), api.credentials()).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofInputStream());
                open.add(stream);
                assertEquals(200, stream.statusCode(), "stream " + (i + 1));
            }
            Http.Reply refused = Http.send(Http.authorized(HttpRequest.newBuilder(events)
                    .header("Accept", "text/event-stream"), api.credentials()));
            JsonNode problem = assertProblem(refused, 429);
            assertTrue(problem.get("detail").asText().contains("open event streams"), refused.body());
            assertEquals("5", refused.headers().firstValue("Retry-After").orElse(null), refused.headers().toString());

            var other = Http.client().send(Http.authorized(HttpRequest.newBuilder(events)
                    .header("Accept", "text/event-stream"), TestStack.credentials(TestStack.VIEWER)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofInputStream());
            open.add(other);
            assertEquals(200, other.statusCode(), "another user still connects");
            String metrics = Http.get(api.base().resolve("api/metrics"), api.credentials()).body();
            assertTrue(metrics.contains("overseer_event_streams_refused_total{reason=\"per-user\"}"), "refusals counted");
        } finally {
            for (var stream : open) {
                stream.body().close();
            }
            // The server drops a stream when its order moves on (or at the next keep-alive): cancel the order,
            // and wait until the user may open a stream again, so that the next test starts with its share.
            api.operator(orderId, "cancel", "test done", TestStack.OPERATOR.name(), TestStack.OPERATOR.password());
            api.awaitState(orderId, WAIT, "Compensated");
            String probe = delayedOrder("c-sse-probe");
            URI probeEvents = api.base().resolve("api/orders/" + probe + "/events");
            Poll.until("the closed streams to be released", WAIT, () -> {
                try {
                    var stream = Http.client().send(Http.authorized(HttpRequest.newBuilder(probeEvents)
                            .header("Accept", "text/event-stream"), api.credentials()).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofInputStream());
                    stream.body().close();
                    return stream.statusCode() == 200;
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            api.operator(probe, "cancel", "test done", TestStack.OPERATOR.name(), TestStack.OPERATOR.password());
            api.awaitState(probe, WAIT, "Compensated");
        }
    }

    /** An order that waits ten minutes to start: its event stream stays open until it is cancelled. */
    private String delayedOrder(String customerId) {
        String later = java.time.Instant.now().plus(Duration.ofMinutes(10)).toString();
        Http.Reply accepted = api.submitRaw("application/json", "{\"customerId\":\"" + customerId + "\",\"items\":[{"
                + "\"sku\":\"A-1\",\"quantity\":1}],\"notBefore\":\"" + later + "\"}");
        assertEquals(202, accepted.status(), accepted.body());
        return accepted.json().get("orderId").asText();
    }

    @Test
    void eventsOfAnUnknownOrderAndWithoutTheRoleAreProblems() {
        URI unknown = api.base().resolve("api/orders/" + UUID.randomUUID() + "/events");
        assertProblem(Http.send(Http.authorized(HttpRequest.newBuilder(unknown).header("Accept", "text/event-stream"),
                api.credentials())), 404);
        assertProblem(Http.send(Http.authorized(HttpRequest.newBuilder(unknown).header("Accept", "text/event-stream"),
                TestStack.credentials(TestStack.SUBMITTER))), 403);
        assertEquals(List.of("Last-Event-ID"), fields(assertProblem(Http.send(Http.authorized(HttpRequest.newBuilder(unknown)
                .header("Accept", "text/event-stream").header("Last-Event-ID", "x"), api.credentials())), 400)));
    }

    @Test
    void metricsAreForViewersAndOperatorsInPrometheusText() {
        URI metrics = api.base().resolve("api/metrics");
        assertProblem(Http.get(metrics), 401);
        assertProblem(Http.get(metrics, TestStack.credentials(TestStack.SUBMITTER)), 403);
        api.submit("c-metrics"); // at least one agent call has been made, or is about to be

        for (var reader : List.of(TestStack.VIEWER, TestStack.OPERATOR)) {
            Http.Reply reply = Http.get(metrics, TestStack.credentials(reader));
            assertEquals(200, reply.status(), reply.body());
            assertTrue(String.valueOf(reply.contentType()).startsWith("text/plain"), reply.contentType());
            assertTrue(reply.body().contains("# TYPE jvm_memory_used_bytes gauge"), reply.body());
            assertTrue(reply.body().contains("overseer_agent_circuit_state{"), reply.body());
            // The REST door is live on the server (api/SubmissionGate): its meters exist once it was made.
            assertTrue(reply.body().contains("overseer_submission_waiting "), reply.body());
            assertTrue(reply.body().contains("overseer_submission_refused_total "), reply.body());
        }
    }

    @Test
    void theOpenApiDocumentIsServedWithoutCredentials() {
        Http.Reply document = Http.send(HttpRequest.newBuilder(api.base().resolve("/openapi"))
                .header("Accept", "application/json").GET());

        assertEquals(200, document.status(), document.body());
        JsonNode openapi = document.json();
        Set<String> paths = new HashSet<>();
        openapi.get("paths").fieldNames().forEachRemaining(paths::add);
        assertTrue(paths.stream().anyMatch(p -> p.endsWith("/orders")), paths.toString());
        assertTrue(paths.stream().anyMatch(p -> p.endsWith("/orders/{orderId}/events")), paths.toString());
        assertNotNull(openapi.at("/components/securitySchemes/basic"), document.body());
        assertEquals("basic", openapi.at("/components/securitySchemes/basic/scheme").asText(), document.body());
        JsonNode orders = openapi.get("paths").get(paths.stream().filter(p -> p.endsWith("/api/orders")).findFirst().orElseThrow());
        assertEquals("#/components/responses/KeyReused", orders.at("/post/responses/422/$ref").asText(), document.body());
        assertTrue(orders.at("/get/summary").asText().contains("viewer"), document.body());
        assertTrue(openapi.at("/components/schemas/Problem/properties").has("errors"), document.body());
        assertTrue(openapi.at("/components/schemas/OrderRequest/properties").has("notBefore"), document.body());
        JsonNode step = openapi.at("/components/schemas/OrderStep/properties");
        assertTrue(step.has("group") && step.has("event") && step.has("heartbeatBy"),
                "the order view's steps show their parallel group, awaited event and heartbeat deadline: " + step);
        assertTrue(openapi.at("/components/schemas/OrderView/properties").has("workflowVersion"), document.body());
        JsonNode getOrder = openapi.get("paths").get(paths.stream().filter(p -> p.endsWith("/api/orders/{orderId}"))
                .findFirst().orElseThrow());
        assertEquals("#/components/schemas/OrderView", getOrder.at("/get/responses/200/content/application~1json/schema/$ref")
                .asText(), getOrder.toString());
    }

    /** Follows {@code next} from the first page to the last; returns every listed order. */
    private List<JsonNode> listAll(String firstPage) {
        List<JsonNode> orders = new ArrayList<>();
        Http.Reply page = api.getRaw(firstPage);
        for (int pages = 0; pages < 10_000; pages++) {
            assertEquals(200, page.status(), page.body());
            page.json().get("orders").forEach(orders::add);
            JsonNode next = page.json().get("next");
            if (next == null || next.isNull()) {
                return orders;
            }
            assertNotNull(page.header("Link"), "a next page has a Link header");
            page = Http.get(api.base().resolve(next.asText()), api.credentials()); // path-absolute: resolved as a client does
        }
        throw new AssertionError("endless paging");
    }
}
