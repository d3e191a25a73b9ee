package io.overseer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The broker's MessagesAdded of every durable queue, by queue, read through the web console's Jolokia with the
 * stack's demo operator (as an operator would in the console). Management and notification queues
 * ({@code activemq.*}) are left out: they are the broker's own traffic, not the application's messages.
 */
final class BrokerCounters {

    private static final ObjectMapper JSON = new ObjectMapper();
    // broker=*: the name is broker.xml's (overseer-broker), not the instance's; one broker per JVM anyway.
    private static final String QUEUES = "org.apache.activemq.artemis:broker=*,component=addresses,"
            + "address=*,subcomponent=queues,routing-type=*,queue=*";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String url;
    private final String origin;
    private final String authorization;

    BrokerCounters(int consolePort, String user, String password) {
        this.origin = "http://127.0.0.1:" + consolePort;
        this.url = origin + "/console/jolokia/";
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** MessagesAdded by queue MBean name; empty if the console does not answer (the figure is then n/a). */
    Map<String, Long> messagesAdded() {
        try {
            String body = JSON.writeValueAsString(Map.of("type", "read", "mbean", QUEUES,
                    "attribute", java.util.List.of("MessagesAdded", "Durable", "Address"),
                    "config", Map.of("ignoreErrors", true)));
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .header("Authorization", authorization).header("Origin", origin)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            return parse(JSON.readTree(r.body()));
        } catch (java.io.IOException | RuntimeException e) {
            Log.info("broker counters not read (" + e + "): messages per order n/a");
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    static Map<String, Long> parse(JsonNode answer) {
        if (answer.path("status").asInt() != 200) {
            throw new IllegalStateException("Jolokia answered " + answer.path("status").asInt() + ": "
                    + answer.path("error").asText());
        }
        Map<String, Long> out = new HashMap<>();
        answer.path("value").fields().forEachRemaining(e -> {
            JsonNode q = e.getValue();
            if (q.path("Durable").asBoolean() && !q.path("Address").asText().startsWith("activemq.")) {
                out.put(e.getKey(), q.path("MessagesAdded").asLong());
            }
        });
        return out;
    }

    /**
     * Messages added between two readings: the growth of queues present in both, plus everything added to a
     * queue created in between. A queue deleted in between is lost (the bench's JMS reply queues stay).
     */
    static long added(Map<String, Long> before, Map<String, Long> after) {
        long sum = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
            sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }
}
