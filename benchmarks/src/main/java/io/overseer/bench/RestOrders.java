package io.overseer.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** POST /api/orders as the launcher's demo user (every role); the answer's orderId is the order. */
final class RestOrders {

    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*\"([^\"]+)\"");
    private static final String AUTHORIZATION = "Basic "
            + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8));

    private final URI orders;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    RestOrders(String baseUrl) {
        this.orders = URI.create(baseUrl + "/api/orders");
    }

    Load.Submitter submitter(String customerPrefix, String workflow) {
        return i -> submit(customerPrefix + i, workflow, null);
    }

    /**
     * As {@link #submitter(String, String)}, each order with one business attribute {@code name}:{@code value}
     * (both plain: a lower-case name, a value without quotes or backslashes).
     */
    Load.Submitter submitter(String customerPrefix, String workflow, String attribute, String value) {
        return submitter(customerPrefix, workflow, java.util.Map.of(attribute, value));
    }

    /** As {@link #submitter(String, String, String, String)}, with every attribute of {@code attributes}. */
    Load.Submitter submitter(String customerPrefix, String workflow, java.util.Map<String, String> attributes) {
        StringBuilder json = new StringBuilder(",\"attributes\":{");
        new java.util.TreeMap<>(attributes).forEach((attribute, value) -> {
            if (!attribute.matches("[a-z][a-z0-9_.-]*") || !value.matches("[A-Za-z0-9_.:-]+")) {
                throw new IllegalArgumentException("attribute " + attribute + "=" + value + " needs JSON escaping");
            }
            json.append(json.length() > 15 ? "," : "").append('"').append(attribute).append("\":\"").append(value).append('"');
        });
        String body = json.append('}').toString();
        return i -> submit(customerPrefix + i, workflow, body);
    }

    private String submit(String customerId, String workflow, String attributes) throws Exception {
        String body = "{\"customerId\":\"" + customerId + "\",\"items\":[{\"sku\":\"B-1\",\"quantity\":1}]"
                + (workflow == null ? "" : ",\"workflow\":\"" + workflow + "\"") + (attributes == null ? "" : attributes) + "}";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(orders).timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json").header("Authorization", AUTHORIZATION)
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 202) {
            throw new IllegalStateException("POST /api/orders answered " + r.statusCode() + ": " + r.body());
        }
        Matcher m = ORDER_ID.matcher(r.body());
        if (!m.find()) {
            throw new IllegalStateException("202 without an orderId: " + r.body());
        }
        return m.group(1);
    }
}
