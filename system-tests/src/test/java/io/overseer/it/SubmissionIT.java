package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.TestStack;
import jakarta.jms.JMSContext;
import jakarta.jms.TextMessage;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
    void linksDoNotReflectTheHostHeader() throws Exception {
        String body = OrdersApi.order("c-host", "A-1", 1);
        String credentials = TestStack.credentials(TestStack.CLIENT).header();
        String post = raw("POST " + root.getRawPath() + "api/orders HTTP/1.1\r\nHost: evil.example\r\n"
                + "Authorization: " + credentials + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body);
        assertTrue(post.startsWith("HTTP/1.1 202"), post);
        String location = headerOf(post, "Location");
        assertTrue(location.startsWith(root.getRawPath() + "api/orders/"), post);
        assertFalse(post.contains("evil.example"), post);

        String list = raw("GET " + root.getRawPath() + "api/orders?limit=1 HTTP/1.1\r\nHost: evil.example\r\n"
                + "Authorization: " + credentials + "\r\nConnection: close\r\n\r\n");
        assertTrue(list.startsWith("HTTP/1.1 200"), list);
        assertTrue(headerOf(list, "Link").startsWith("<" + root.getRawPath() + "api/orders?"), list);
        assertFalse(list.contains("evil.example"), list);
    }

    private String raw(String request) throws Exception {
        try (Socket socket = new Socket(root.getHost(), root.getPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String headerOf(String response, String name) {
        for (String line : response.split("\r\n")) {
            if (line.isEmpty()) {
                break;
            }
            if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " header in:\n" + response);
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
