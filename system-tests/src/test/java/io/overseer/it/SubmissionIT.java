package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.RawHttp;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;

/** Both submission channels, and what happens to bad input on each: nothing written, nothing lost. */
class SubmissionIT extends DeployedWarIT {

    @Test
    void submissionAnswers202WithLocationAndTheStateRecord() {
        Http.Reply reply = api.submitRaw("application/json", OrdersApi.order("c-rest", "A-1", 2));

        assertEquals(202, reply.status(), reply.body());
        String orderId = reply.json().get("orderId").asText();
        assertTrue(reply.location().endsWith("/api/orders/" + orderId), reply.location());
        JsonNode order = api.get(orderId);
        assertEquals(orderId, order.get("orderId").asText());
        assertTrue(order.has("processState") && order.has("failureCount") && order.has("lockedBy")
                && order.has("completeBy") && order.has("steps"), order.toString());
    }

    /**
     * The Host header is the client's to choose: a Location or a next link built from it would send whoever
     * follows it (or a shared cache's next reader) to that host. Links are path-absolute instead. A raw
     * socket, because Java's HTTP client does not let a caller set Host.
     */
    @Test
    void linksDoNotReflectTheHostHeader() {
        String body = OrdersApi.order("c-host", "A-1", 1);
        String credentials = TestStack.credentials(TestStack.CLIENT).header();
        RawHttp.Answer post = RawHttp.exchange(root, "POST " + root.getRawPath() + "api/orders HTTP/1.1\r\n"
                + "Host: evil.example\r\nAuthorization: " + credentials + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body);
        assertTrue(post.statusLine().startsWith("HTTP/1.1 202"), post.text());
        String location = post.header("Location");
        assertTrue(location.startsWith(root.getRawPath() + "api/orders/"), post.text());
        assertFalse(post.text().contains("evil.example"), post.text());

        RawHttp.Answer list = RawHttp.exchange(root, "GET " + root.getRawPath() + "api/orders?limit=1 HTTP/1.1\r\n"
                + "Host: evil.example\r\nAuthorization: " + credentials + "\r\nConnection: close\r\n\r\n");
        assertTrue(list.statusLine().startsWith("HTTP/1.1 200"), list.text());
        assertTrue(list.header("Link").startsWith("<" + root.getRawPath() + "api/orders?"), list.text());
        assertFalse(list.text().contains("evil.example"), list.text());
    }

    @Test
    void malformedJsonIs400ProblemAndWritesNothing() {
        long before = TestStack.countOrders();

        Http.Reply reply = api.submitRaw("application/json", "{\"customerId\": \"c-1\", \"items\": [");

        assertProblem(reply, 400);
        assertEquals(before, TestStack.countOrders());
    }

    @Test
    void invalidFieldsAre400ProblemNamingTheFields() {
        long before = TestStack.countOrders();

        Http.Reply reply = api.submitRaw("application/json", "{\"customerId\":\"\",\"items\":[{\"sku\":\"A-1\",\"quantity\":0}]}");

        JsonNode problem = assertProblem(reply, 400);
        String fields = problem.get("errors").toString();
        assertTrue(fields.contains("customerId") && fields.contains("items[0].quantity"), fields);
        assertEquals(before, TestStack.countOrders());
    }

    @Test
    void emptyBodyAndWrongContentTypeAreRefused() {
        assertProblem(api.submitRaw("application/json", ""), 400);
        assertProblem(api.submitRaw("text/plain", OrdersApi.order("c-1", "A-1", 1)), 415);
    }

    @Test
    void unknownOrderIs404Problem() {
        assertProblem(api.getRaw("api/orders/" + UUID.randomUUID()), 404);
    }

    @Test
    void aLegacyJmsClientSubmitsOnTheOrderQueue() {
        String customer = "c-jms-" + UUID.randomUUID();
        try (ActiveMQConnectionFactory factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext()) {
            jms.createProducer().send(jms.createQueue("orders"), OrdersApi.order(customer, "B-2", 1));
        }

        String orderId = TestStack.awaitOrderOf(customer, Duration.ofSeconds(30));

        assertEquals("Processed", api.awaitState(orderId, Duration.ofSeconds(60), "Processed").get("processState").asText());
    }

    @Test
    void anInvalidJmsOrderGoesToTheDeadLetterQueueWithTheReason() throws Exception {
        String marker = "c-poison-" + UUID.randomUUID();
        long before = TestStack.countOrders();
        try (ActiveMQConnectionFactory factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext()) {
            jms.createProducer().setProperty("marker", marker)
                    .send(jms.createQueue("orders"), "{\"customerId\":\"" + marker + "\",\"items\":[]}");

            TextMessage dead = awaitDeadLetter(jms, marker);

            assertNotNull(dead, "the invalid order reached the DLQ");
            assertTrue(dead.getStringProperty("dlqReason").contains("items"), dead.getStringProperty("dlqReason"));
            assertEquals("orders", dead.getStringProperty("dlqOriginalDestination"));
            assertTrue(dead.getText().contains(marker));
        }
        assertEquals(before, TestStack.countOrders());
    }

    /**
     * The two listeners split the order queue by selector (scheduler: hints and events as clients spell
     * them; submission: the rest): a type neither handles still has a consumer, which dead-letters it.
     */
    @Test
    void anUnknownOrOddlySpelledTypeGoesToTheDeadLetterQueueWithTheReason() throws Exception {
        Map<String, String> reasons = Map.of("bogus", "unknown overseerType", "eVent", "overseerType 'eVent': write EVENT or event");
        try (ActiveMQConnectionFactory factory = TestStack.connectionFactory(); JMSContext jms = factory.createContext()) {
            for (Map.Entry<String, String> type : reasons.entrySet()) {
                String marker = "type-" + UUID.randomUUID();
                jms.createProducer().setProperty("marker", marker).setProperty("overseerType", type.getKey())
                        .send(jms.createQueue("orders"), "{}");
                TextMessage dead = awaitDeadLetter(jms, marker);
                assertNotNull(dead, type.getKey() + " reached the DLQ");
                assertEquals(type.getValue(), dead.getStringProperty("dlqReason"));
            }
        }
    }

    private static TextMessage awaitDeadLetter(JMSContext jms, String marker) {
        try (var consumer = jms.createConsumer(jms.createQueue("DLQ"), "marker = '" + marker + "'")) {
            return (TextMessage) consumer.receive(30_000);
        }
    }

    private static JsonNode assertProblem(Http.Reply reply, int status) {
        assertEquals(status, reply.status(), reply.body());
        assertTrue(reply.contentType().startsWith("application/problem+json"), reply.contentType());
        JsonNode problem = reply.json();
        assertEquals(status, problem.get("status").asInt());
        assertNotNull(problem.get("title"));
        return problem;
    }
}
