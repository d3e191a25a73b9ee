package io.overseer.it;

import static io.overseer.support.Problems.assertProblem;
import static io.overseer.support.Problems.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.TestStack;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile and sloppy input against the running server: every request is refused with the right 4xx and
 * a problem body that names the offending fields and leaks nothing; no order (not even part of one) is
 * written; the server stays ready. Text the API does accept (right-to-left scripts, emoji, SQL-looking
 * strings) is stored and returned verbatim.
 */
class BadInputIT extends DeployedWarIT {

    private static final String ITEMS = "[{\"sku\":\"A-1\",\"quantity\":1}]";

    private long ordersBefore;

    @BeforeEach
    void countOrders() {
        ordersBefore = TestStack.countOrders();
    }

    /** Every test here is refused or accepted as it says: afterwards the server is still ready. */
    @AfterEach
    void serverStaysHealthy() {
        Http.Reply ready = Http.get(root.resolve("/health/ready"));
        assertEquals(200, ready.status(), ready.body());
    }

    @Test
    void malformedJsonIsRefused() {
        refused(400, "{\"customerId\": \"c-1\", \"items\": [");
        refused(400, "{\"customerId\":\"c\",\"items\":" + ITEMS + "} trailing");
        refused(400, "{'customerId':'c'}");
        refused(400, "[{\"customerId\":\"c\"}]");
        refused(400, "\"an order\"");
        refused(400, "null");
    }

    @Test
    void wrongTypesNameTheirFields() {
        assertEquals(List.of("items[0].quantity"), fields(refused(400,
                "{\"customerId\":\"c\",\"items\":[{\"sku\":\"A-1\",\"quantity\":\"2\"}]}")));
        assertEquals(List.of("customerId", "items"), fields(refused(400, "{\"customerId\":5,\"items\":{}}")));
        assertEquals(List.of("items[0].quantity"), fields(refused(400,
                "{\"customerId\":\"c\",\"items\":[{\"sku\":\"A-1\",\"quantity\":2.5}]}")));
        assertEquals(List.of("items[0].quantity"), fields(refused(400,
                "{\"customerId\":\"c\",\"items\":[{\"sku\":\"A-1\",\"quantity\":99999999999999}]}")));
        assertEquals(List.of("items[0]"), fields(refused(400, "{\"customerId\":\"c\",\"items\":[\"A-1\"]}")));
    }

    @Test
    void missingAndInvalidFieldsAreAllNamed() {
        assertEquals(List.of("customerId", "items"), fields(refused(400, "{}")));
        assertEquals(List.of("customerId", "items[0].quantity", "items[0].sku"), fields(refused(400,
                "{\"customerId\":\" \",\"items\":[{\"sku\":\"\",\"quantity\":0}]}")).stream().distinct().toList());
        assertEquals(List.of("body"), fields(refused(400, "")));
    }

    @Test
    void unknownAndRepeatedFieldsAreRefused() {
        assertEquals(List.of("colour"), fields(refused(400,
                "{\"customerId\":\"c\",\"items\":" + ITEMS + ",\"colour\":\"red\"}")));
        assertEquals(List.of("items[0].price"), fields(refused(400,
                "{\"customerId\":\"c\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1,\"price\":3}]}")));
        assertEquals(List.of("customerId"), fields(refused(400,
                "{\"customerId\":\"a\",\"customerId\":\"b\",\"items\":" + ITEMS + "}")));
    }

    @Test
    void listsAndStringsHaveLimits() {
        String items = "{\"sku\":\"A-1\",\"quantity\":1},".repeat(101);
        assertEquals(List.of("items"), fields(refused(400,
                "{\"customerId\":\"c\",\"items\":[" + items.substring(0, items.length() - 1) + "]}")));
        assertEquals(List.of("customerId"), fields(refused(400,
                "{\"customerId\":\"" + "c".repeat(101) + "\",\"items\":" + ITEMS + "}")));
    }

    /** Issue 29: at most 16 attributes, names like region or merchant.id, values of at most 100 characters of text. */
    @Test
    void attributesHaveLimits() {
        StringBuilder seventeen = new StringBuilder();
        for (int i = 0; i < 17; i++) {
            seventeen.append(i == 0 ? "" : ",").append("\"a").append(i).append("\":\"v\"");
        }
        for (String attributes : List.of("{" + seventeen + "}", "{\"Region\":\"eu\"}", "{\"1st\":\"x\"}",
                "{\"region\":\"" + "x".repeat(101) + "\"}", "{\"region\":\"e\\u0000u\"}", "{\"region\":null}",
                "{\"" + "r".repeat(41) + "\":\"eu\"}", "[\"region\"]", "{\"region\":5}")) {
            List<String> named = fields(refused(400, "{\"customerId\":\"c\",\"items\":" + ITEMS + ",\"attributes\":"
                    + attributes + "}"));
            assertTrue(!named.isEmpty() && named.stream().allMatch(f -> f.startsWith("attributes")), attributes + ": " + named);
            assertTrue(named.stream().allMatch(f -> f.length() < 120), "a field's name is bounded: " + named);
        }
    }

    @Test
    void hugeBodiesAre413BeforeTheyAreRead() {
        String huge = "{\"customerId\":\"" + "x".repeat(1024 * 1024) + "\",\"items\":" + ITEMS + "}";
        assertProblem(api.submitRaw("application/json", huge), 413);
        // The same without a Content-Length (chunked): read up to the limit, then refused.
        byte[] bytes = ("{\"customerId\":\"" + "x".repeat(256 * 1024) + "\",\"items\":" + ITEMS + "}")
                .getBytes(StandardCharsets.UTF_8);
        assertProblem(send(HttpRequest.newBuilder(orders()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)))), 413);
        assertEquals(ordersBefore, TestStack.countOrders());
    }

    @Test
    void deepNestingIsRefusedWithoutHarm() {
        refused(400, "{\"customerId\":\"c\",\"items\":" + "[".repeat(40) + "]".repeat(40) + "}");
        refused(400, "{\"customerId\":\"c\",\"items\":" + "[".repeat(20_000) + "]".repeat(20_000) + "}");
        refused(400, "{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000));
    }

    @Test
    void controlCharactersLoneSurrogatesAndBidiOverridesAreRefused() {
        assertEquals(List.of("customerId"), fields(refused(400, order("\\u0000c"))));
        assertEquals(List.of("customerId"), fields(refused(400, order("line\\nbreak"))));
        assertEquals(List.of("customerId"), fields(refused(400, order("half \\uD83D pair"))));
        assertEquals(List.of("customerId"), fields(refused(400, order("abc\\u202Efdp.exe"))));
        // Bytes that are not UTF-8 at all.
        byte[] latin1 = order("caf\u00e9").getBytes(StandardCharsets.ISO_8859_1);
        assertProblem(send(HttpRequest.newBuilder(orders()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(latin1))), 400);
        assertEquals(ordersBefore, TestStack.countOrders());
    }

    @Test
    void rightToLeftScriptsAndEmojiAreStoredVerbatim() {
        for (String customer : List.of("לקוח-" + UUID.randomUUID(), "عميل-" + UUID.randomUUID(),
                "👩‍💻🚀-" + UUID.randomUUID(), "Zoë Ñandú-" + UUID.randomUUID())) {
            assertEquals(customer, acceptedCustomer(order(customer)));
        }
    }

    @Test
    void sqlLookingTextIsJustText() {
        String customer = "x'); DROP TABLE customer_order; -- " + UUID.randomUUID();
        assertEquals(customer, acceptedCustomer(order(customer)));
        assertTrue(TestStack.countOrders() > ordersBefore, "customer_order is still there");
        ordersBefore = TestStack.countOrders();
        // Where the format forbids quotes, SQL-looking values are refused like any other bad value.
        assertEquals(List.of("items[0].sku"), fields(refused(400,
                "{\"customerId\":\"c\",\"items\":[{\"sku\":\"A' OR '1'='1\",\"quantity\":1}]}")));
        assertEquals(List.of("state"), fields(assertProblem(api.getRaw("api/orders?state=Pending'%20OR%20'1'='1"), 400)));
    }

    @Test
    void wrongContentTypeAndAcceptAreRefused() {
        assertProblem(api.submitRaw("text/plain", OrdersApi.order("c-1", "A-1", 1)), 415);
        assertProblem(api.submitRaw("application/xml", "<order/>"), 415);
        assertProblem(send(HttpRequest.newBuilder(orders()).POST(HttpRequest.BodyPublishers.ofString(
                OrdersApi.order("c-1", "A-1", 1)))), 415);
        assertProblem(send(HttpRequest.newBuilder(orders()).header("Content-Type", "application/json")
                .header("Accept", "application/xml").POST(HttpRequest.BodyPublishers.ofString(
                        OrdersApi.order("c-1", "A-1", 1)))), 406);
        assertProblem(send(HttpRequest.newBuilder(orders()).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(OrdersApi.order("c-1", "A-1", 1)))), 405);
        // An Accept that is no media type list at all: a problem, not the server's HTML error page (issue 16).
        for (String accept : List.of("///;;q=x", "text/html;q=abc")) {
            assertProblem(send(HttpRequest.newBuilder(orders()).header("Content-Type", "application/json")
                    .header("Accept", accept).POST(HttpRequest.BodyPublishers.ofString(OrdersApi.order("c-1", "A-1", 1)))),
                    400);
        }
        assertEquals(ordersBefore, TestStack.countOrders());
    }

    /**
     * A Content-Type that is empty, malformed or given twice tells the server no more than none at all:
     * 415 like a missing one, as a problem rather than the container's HTML error page.
     */
    @Test
    void unreadableContentTypesAre415Problems() {
        String body = OrdersApi.order("c-1", "A-1", 1);
        for (String contentType : List.of("", "application/json;;;==", "/", "application json")) {
            JsonNode problem = assertProblem(send(HttpRequest.newBuilder(orders()).header("Content-Type", contentType)
                    .POST(HttpRequest.BodyPublishers.ofString(body))), 415);
            assertTrue(problem.get("detail").asText().contains("application/json"), problem.toString());
        }
        assertProblem(send(HttpRequest.newBuilder(orders()).header("Content-Type", "application/json")
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(body))), 415);
        assertEquals(ordersBefore, TestStack.countOrders());
    }

    /** JSON is UTF-8 (RFC 8259): a body declared in another charset, or in one that does not exist, is refused. */
    @Test
    void charsetsOtherThanUtf8Are415Problems() {
        for (String charset : List.of("UTF-16", "utf-16le", "ISO-8859-1", "bogus", "\"\"")) {
            JsonNode problem = assertProblem(api.submitRaw("application/json; charset=" + charset,
                    OrdersApi.order("c-1", "A-1", 1)), 415);
            assertTrue(problem.get("detail").asText().contains("UTF-8"), problem.toString());
        }
        assertEquals(ordersBefore, TestStack.countOrders());
        // UTF-8 however it is spelt, and no charset at all, are the same thing.
        for (String contentType : List.of("application/json; charset=UTF-8", "application/json;charset=\"utf-8\"",
                "application/json")) {
            Http.Reply reply = api.submitRaw(contentType, OrdersApi.order("c-1", "A-1", 1));
            assertEquals(202, reply.status(), contentType + ": " + reply.body());
        }
        ordersBefore = TestStack.countOrders();
    }

    /**
     * Content on a DELETE has no defined meaning (RFC 9110 §9.3.5) and the API has no DELETE at all: the
     * caller is still authenticated first, then told so by a problem, as a DELETE without content is.
     */
    @Test
    void aDeleteWithContentIsAuthenticatedThenRefusedAsAProblem() {
        URI order = api.base().resolve("api/orders/" + UUID.randomUUID());
        HttpRequest.Builder delete = HttpRequest.newBuilder(order).header("Content-Type", "application/json")
                .method("DELETE", HttpRequest.BodyPublishers.ofString(OrdersApi.order("c-1", "A-1", 1)));
        Http.Reply anonymous = Http.send(delete);
        assertProblem(anonymous, 401);
        assertProblem(send(delete), 405);
        assertEquals(ordersBefore, TestStack.countOrders());
    }

    @Test
    void callersNeedCredentialsAndTheRole() {
        String body = OrdersApi.order("c-1", "A-1", 1);
        Http.Reply anonymous = api.as(null).submitRaw("application/json", body);
        assertProblem(anonymous, 401);
        assertNotNull(anonymous.header("WWW-Authenticate"), "the Basic challenge is kept");
        assertProblem(api.as(new Http.Credentials(TestStack.CLIENT.name(), "wrong")).submitRaw("application/json", body), 401);
        assertProblem(api.as(TestStack.credentials(TestStack.VIEWER)).submitRaw("application/json", body), 403);
        assertProblem(api.as(TestStack.credentials(TestStack.SUBMITTER)).getRaw("api/orders"), 403);
        assertProblem(api.as(null).getRaw("api/orders"), 401);
        assertProblem(api.as(TestStack.credentials(TestStack.CLIENT)).getRaw("api/operator/orders/x/cancel"), 403);
        assertEquals(ordersBefore, TestStack.countOrders());
    }

    @Test
    void badIdempotencyKeysAreNamed() {
        // Up to the server's header limit (8 KiB for all headers): beyond it, or with bytes outside ASCII, Payara's
        // HTTP layer refuses the request with a bare 400 before the application sees it (SECURITY.md).
        for (String key : List.of("has space", "k".repeat(256), "k".repeat(4000))) {
            Http.Reply reply = send(HttpRequest.newBuilder(orders()).header("Content-Type", "application/json")
                    .header("Idempotency-Key", key).POST(HttpRequest.BodyPublishers.ofString(OrdersApi.order("c", "A-1", 1))));
            JsonNode problem = assertProblem(reply, 400);
            assertEquals(List.of("Idempotency-Key"), fields(problem));
            assertEquals("must be 1-255 visible ASCII characters", problem.at("/errors/0/message").asText(), reply.body());
        }
        assertEquals(ordersBefore, TestStack.countOrders());
    }

    private JsonNode refused(int status, String body) {
        JsonNode problem = assertProblem(api.submitRaw("application/json", body), status);
        assertEquals(ordersBefore, TestStack.countOrders(), "no order written for " + abbreviated(body));
        return problem;
    }

    private String acceptedCustomer(String body) {
        Http.Reply reply = api.submitRaw("application/json", body);
        assertEquals(202, reply.status(), reply.body());
        return api.get(reply.json().get("orderId").asText()).get("customerId").asText();
    }

    /** An order of one item for this customer; {@code customer} is put into the JSON string as is. */
    private static String order(String customer) {
        return "{\"customerId\":\"" + customer + "\",\"items\":" + ITEMS + "}";
    }

    private Http.Reply send(HttpRequest.Builder request) {
        return Http.send(Http.authorized(request, api.credentials()));
    }

    private URI orders() {
        return api.base().resolve("api/orders");
    }

    private static String abbreviated(String body) {
        return body.length() <= 120 ? body : body.substring(0, 120) + "…";
    }
}
