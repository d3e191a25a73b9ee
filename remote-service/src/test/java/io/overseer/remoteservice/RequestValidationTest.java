package io.overseer.remoteservice;

import static io.overseer.remoteservice.FaultInjectionTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestValidationTest extends SimulatorTestSupport {

    @Test
    void missingIdempotencyKeyIsRejected() {
        assertRejected(client.post("/operations/charge-payment", null, "{\"orderId\":\"order-1\"}"));
    }

    @Test
    void overlongIdempotencyKeyIsRejected() {
        assertRejected(client.post("/operations/charge-payment", "k".repeat(201), "{\"orderId\":\"order-1\"}"));
        assertEquals(200, client.post("/operations/charge-payment", "k".repeat(200),
                "{\"orderId\":\"order-1\"}").statusCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{not json", "[]", "null", "{}", "{\"orderId\":\"  \"}", "{\"payload\":{}}"})
    void badBodiesAreRejected(String body) {
        assertRejected(client.post("/operations/charge-payment", "key-1", body));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Charge", "charge_payment", "a%20b",
        "a123456789a123456789a123456789a123456789a123456789a123456789abcde"})
    void badOperationNamesAreRejected(String operation) {
        assertRejected(client.post("/operations/" + operation, "key-1", "{\"orderId\":\"order-1\"}"));
    }

    @Test
    void emptyOperationNameIsRejected() {
        assertRejected(client.post("/operations/", "key-1", "{\"orderId\":\"order-1\"}"));
    }

    @ParameterizedTest
    @CsvSource({"GET,/nowhere", "GET,/stats/extra", "POST,/operation/charge-payment", "GET,/"})
    void unknownPathsAnswer404Problem(String method, String path) {
        assertProblem(client.request(method, path), 404, "Not Found");
    }

    @ParameterizedTest
    @CsvSource({"GET,/operations/charge-payment,POST", "POST,/stats,GET", "PUT,/effects,'DELETE, GET'",
        "POST,/faults,'DELETE, GET, PUT'"})
    void wrongMethodsAnswer405ProblemWithAllow(String method, String path, String allow) {
        HttpResponse<String> response = client.request(method, path);

        assertProblem(response, 405, "Method Not Allowed");
        assertEquals(allow, response.headers().firstValue("Allow").orElse(null));
    }

    @Test
    void healthIsUp() {
        HttpResponse<String> response = client.request("GET", "/health");

        assertEquals(200, response.statusCode());
        assertEquals("UP", SimulatorClient.json(response).get("status").asText());
    }

    @Test
    void deadlineHeaderIsAcceptedEvenWhenPastOrMalformed() {
        for (String completeBy : new String[] {"2000-01-01T00:00:00Z", "tomorrow"}) {
            HttpRequest request = HttpRequest.newBuilder(simulator.baseUri().resolve("/operations/ship"))
                    .header("Idempotency-Key", "key-" + completeBy)
                    .header("X-Complete-By", completeBy)
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"orderId\":\"order-" + completeBy + "\"}"))
                    .build();
            assertEquals(200, client.send(request).statusCode());
        }
    }

    private void assertRejected(HttpResponse<String> response) {
        assertProblem(response, 400, "Bad Request");
        assertEquals(0, client.stats().get("applied").asLong());
    }
}
