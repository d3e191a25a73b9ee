package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.it.plugin.StockAudit;
import io.overseer.support.OrdersApi;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Heartbeats: the "audited" workflow's step has a 60 s complete-by and a 3 s heartbeat, and its coded agent
 * ({@link StockAudit}) beats twice on its first attempt, then falls silent. The supervisor retries the
 * attempt once its heartbeat is missed — long before its complete-by, and not before the beats it did send
 * had moved the heartbeat deadline on — and the second attempt, beating as it works, completes the order.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HeartbeatIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration COMPLETE_BY = Duration.ofSeconds(60);

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TheWar.deployment();
    }

    @Test
    void anAgentThatStopsBeatingIsRetriedBeforeItsCompleteBy() {
        OrdersApi api = new OrdersApi(URI.create(base.toString()));
        String orderId = api.submit("c-audited", "audited");

        JsonNode order = api.awaitState(orderId, WAIT, "Processed", "Error", "Compensated");

        assertEquals("Processed", order.get("processState").asText(), order.toString());
        JsonNode history = api.history(orderId);
        Instant started = null;
        Instant missed = null;
        for (JsonNode entry : history) {
            if (started == null && "Running".equals(entry.path("to").asText())) {
                started = Instant.parse(entry.get("at").asText());
            }
            if (missed == null && entry.path("reason").asText().startsWith("heartbeat missed (failure 1); retry")) {
                missed = Instant.parse(entry.get("at").asText());
            }
        }
        assertNotNull(missed, "the supervisor retried on a missed heartbeat: " + history);
        Duration silentFor = Duration.between(started, missed);
        assertTrue(silentFor.compareTo(COMPLETE_BY) < 0, "retried " + silentFor + " after the start, before its complete-by");
        assertTrue(silentFor.compareTo(Duration.ofSeconds(4)) > 0,
                "the two beats moved the 3 s heartbeat deadline on: retried only " + silentFor + " after the start");
        assertEquals(1, order.get("failureCount").asInt(), order.toString());
    }
}
