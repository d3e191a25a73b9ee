package io.overseer.it;

import static io.overseer.support.Problems.assertProblem;
import static io.overseer.support.Problems.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.EventStream;
import io.overseer.support.Http;
import io.overseer.support.TestStack;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
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

    @Test
    void badQueryParametersAreNamed() {
        assertEquals(List.of("limit"), fields(assertProblem(api.getRaw("api/orders?limit=0"), 400)));
        assertEquals(List.of("limit"), fields(assertProblem(api.getRaw("api/orders?limit=201"), 400)));
        assertEquals(List.of("state", "limit", "after"),
                fields(assertProblem(api.getRaw("api/orders?state=Done&limit=abc&after=not-a-cursor"), 400)));
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
            page = Http.get(URI.create(next.asText()), api.credentials());
        }
        throw new AssertionError("endless paging");
    }
}
