package io.overseer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.it.plugin.StuckScreening;
import io.overseer.support.Http;
import io.overseer.support.OrdersApi;
import io.overseer.support.Poll;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Liveness goes DOWN when a worker of the instance is stuck — here an agent worker held by a coded agent
 * that ignores its timeout ({@link StuckScreening}) — naming what is stuck, and UP again once the worker
 * is free. The bound is 2 s in the tier's deployment ({@link TheWar}) instead of the default 2 min.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class LivenessIT {

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TheWar.deployment();
    }

    @Test
    void anAgentWorkerHeldPastItsDeadlineAndTheBoundMakesLivenessDownUntilItIsFree() {
        URI root = URI.create(base.toString());
        URI live = root.resolve("/health/live");
        Http.Reply before = Http.get(live);
        assertEquals(200, before.status(), before.body());
        assertTrue(checkNames(before.json()).containsAll(List.of("workers", "database-pool")), before.body());

        String orderId = new OrdersApi(root).submit("c-stuck-worker", "stuck-screened");

        String stuck = "agent attempt " + orderId + " " + StuckScreening.OPERATION;
        java.util.Set<String> answers = new java.util.LinkedHashSet<>();
        try {
            Poll.until("liveness DOWN naming " + stuck, Duration.ofSeconds(30), () -> {
                Http.Reply reply = Http.get(live);
                answers.add(reply.status() + " " + reply.body().replaceAll("\\d+ s\"", "N s\""));
                return reply.status() == 503 && reply.body().contains(stuck);
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; answers: " + answers, e);
        }
        Poll.until("liveness UP once the coded agent lets its worker go", StuckScreening.HOLD.plusSeconds(30),
                () -> Http.get(live).status() == 200);
    }

    private static List<String> checkNames(JsonNode health) {
        List<String> names = new ArrayList<>();
        health.path("checks").forEach(check -> names.add(check.path("name").asText()));
        return names;
    }
}
