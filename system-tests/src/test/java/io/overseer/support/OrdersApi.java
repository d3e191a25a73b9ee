package io.overseer.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.Set;

/**
 * The application's HTTP API as a test sees it, calling as one user of the server's realm (by default
 * {@link TestStack#CLIENT}, who may submit and read).
 */
public final class OrdersApi {

    private final URI base;
    private final Http.Credentials credentials;

    /** @param base the application's root, e.g. http://127.0.0.1:8080/ (with the trailing slash) */
    public OrdersApi(URI base) {
        this(base, TestStack.credentials(TestStack.CLIENT));
    }

    /** @param credentials the caller, or null for anonymous calls */
    public OrdersApi(URI base, Http.Credentials credentials) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.credentials = credentials;
    }

    /** The same API as another caller (null: anonymous). */
    public OrdersApi as(Http.Credentials other) {
        return new OrdersApi(base, other);
    }

    public URI base() {
        return base;
    }

    public Http.Credentials credentials() {
        return credentials;
    }

    public static String order(String customerId, String sku, int quantity) {
        return "{\"customerId\":\"" + customerId + "\",\"items\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}]}";
    }

    public static String order(String customerId, String workflow) {
        return "{\"customerId\":\"" + customerId + "\",\"workflow\":\"" + workflow
                + "\",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]}";
    }

    public Http.Reply submitRaw(String contentType, String body) {
        return Http.post(base.resolve("api/orders"), contentType, body, credentials);
    }

    /**
     * A POST of one order as a client under load behaves: a 503 (the server sheds load) is retried after
     * its Retry-After, up to ten times; any other answer is returned.
     */
    public Http.Reply submitRetryingBusy(String body) {
        Http.Reply reply = null;
        for (int attempt = 0; attempt < 10; attempt++) {
            reply = submitRaw("application/json", body);
            String retryAfter = reply.header("Retry-After");
            if (reply.status() != 503 || retryAfter == null) {
                return reply;
            }
            long seconds;
            try {
                seconds = Long.parseLong(retryAfter.trim());
            } catch (NumberFormatException e) {
                seconds = 1; // an HTTP-date: not worth parsing here
            }
            Poll.sleep(Math.min(10_000, 1_000 * Math.max(1, seconds)));
        }
        return reply;
    }

    /** Submits an order, asserts 202, returns its id. */
    public String submit(String customerId) {
        Http.Reply reply = submitRaw("application/json", order(customerId, "A-1", 2));
        assertEquals(202, reply.status(), reply.body());
        return reply.json().get("orderId").asText();
    }

    /**
     * Submits a one-line order with business attributes ({@code attributes}: a JSON object, or null for none),
     * asserts 202, returns its id.
     */
    public String submitWithAttributes(String customerId, String attributes) {
        return submitWithAttributes(customerId, null, attributes);
    }

    /** As {@link #submitWithAttributes(String, String)}, of {@code workflow} (null: the default one). */
    public String submitWithAttributes(String customerId, String workflow, String attributes) {
        Http.Reply reply = submitRaw("application/json", "{\"customerId\":\"" + customerId + "\""
                + (workflow == null ? "" : ",\"workflow\":\"" + workflow + "\"")
                + ",\"items\":[{\"sku\":\"A-1\",\"quantity\":1}]"
                + (attributes == null ? "" : ",\"attributes\":" + attributes) + "}");
        assertEquals(202, reply.status(), reply.body());
        return reply.json().get("orderId").asText();
    }

    /** Submits an order of the given workflow (task type), asserts 202, returns its id. */
    public String submit(String customerId, String workflow) {
        Http.Reply reply = submitRaw("application/json", order(customerId, workflow));
        assertEquals(202, reply.status(), reply.body());
        return reply.json().get("orderId").asText();
    }

    /** An operator action ("resubmit" or "cancel") with a reason, as the given user. */
    public Http.Reply operator(String orderId, String action, String reason, String user, String password) {
        return Http.post(base.resolve("api/operator/orders/" + orderId + "/" + action),
                "{\"reason\":\"" + reason + "\"}", user, password);
    }

    public JsonNode history(String orderId) {
        Http.Reply reply = Http.get(base.resolve("api/orders/" + orderId + "/history"), credentials);
        assertEquals(200, reply.status(), reply.body());
        return reply.json();
    }

    public JsonNode get(String orderId) {
        Http.Reply reply = Http.get(base.resolve("api/orders/" + orderId), credentials);
        assertEquals(200, reply.status(), reply.body());
        return reply.json();
    }

    public Http.Reply getRaw(String path) {
        return Http.get(base.resolve(path), credentials);
    }

    /** Polls until the order is in one of the states, failing with its last snapshot after the timeout. */
    public JsonNode awaitState(String orderId, Duration timeout, String... states) {
        return Poll.until("order " + orderId + " to be in " + Set.of(states), timeout, Duration.ofMillis(200),
                () -> get(orderId), order -> Set.of(states).contains(order.get("processState").asText()));
    }
}
