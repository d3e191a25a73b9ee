package io.overseer.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The orders' traces as the viewer holds them (Zipkin lower-cases span names: names compare ignoring case): Zipkin's API ({@code /api/v2/trace/ID}, and the search by the
 * {@code overseer.order.id} tag), read the way an operator's tools would, and the checks every tracing test
 * shares — one trace per order, each step attempt's spans in order under the right parents, the simulator's
 * calls carrying that trace.
 */
public final class Traces {

    /** One span as Zipkin returns it (kind null for an internal span; tags as strings). */
    public record SpanView(String traceId, String id, String parentId, String name, String kind, long timestamp,
                           long duration, Map<String, String> tags) {

        public String tag(String key) {
            return tags.get(key);
        }

        static SpanView of(JsonNode span) {
            Map<String, String> tags = new LinkedHashMap<>();
            span.path("tags").fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
            return new SpanView(span.path("traceId").asText(), span.path("id").asText(),
                    span.hasNonNull("parentId") ? span.get("parentId").asText() : null, span.path("name").asText(),
                    span.hasNonNull("kind") ? span.get("kind").asText() : null, span.path("timestamp").asLong(),
                    span.path("duration").asLong(), tags);
        }

        @Override
        public String toString() {
            return name + "[" + id + "<-" + parentId + (kind == null ? "" : " " + kind) + " @" + timestamp + " "
                    + tags.getOrDefault("overseer.outcome", "") + "]";
        }
    }

    private final URI zipkin;

    public Traces(String zipkinUrl) {
        this.zipkin = URI.create(zipkinUrl.endsWith("/") ? zipkinUrl : zipkinUrl + "/");
    }

    /** Zipkin's page of one trace, for a browser. */
    public String uiUrl(String traceId) {
        return zipkin.resolve("zipkin/traces/" + traceId).toString();
    }

    /** The spans Zipkin holds of {@code traceId}; empty if none (yet). Zipkin ids are lowercase hex. */
    public List<SpanView> trace(String traceId) {
        Http.Reply reply = Http.send(HttpRequest.newBuilder(zipkin.resolve("api/v2/trace/" + traceId)).GET());
        if (reply.status() == 404) {
            return List.of();
        }
        assertEquals(200, reply.status(), reply.body());
        List<SpanView> spans = new ArrayList<>();
        reply.json().forEach(span -> spans.add(SpanView.of(span)));
        spans.sort(Comparator.comparingLong(SpanView::timestamp));
        return spans;
    }

    /** The ids of the traces that hold a span tagged with {@code orderId} (the last hour). */
    public List<String> traceIdsOf(String orderId) {
        String query = "api/v2/traces?serviceName=overseer&limit=20&lookback=3600000&annotationQuery="
                + URLEncoder.encode("overseer.order.id=" + orderId, StandardCharsets.UTF_8);
        Http.Reply reply = Http.send(HttpRequest.newBuilder(zipkin.resolve(query)).GET());
        assertEquals(200, reply.status(), reply.body());
        List<String> ids = new ArrayList<>();
        reply.json().forEach(trace -> trace.forEach(span -> {
            String id = span.path("traceId").asText();
            if (!ids.contains(id)) {
                ids.add(id);
            }
        }));
        return ids;
    }

    /**
     * The one trace of {@code orderId}, once it holds what {@code complete} asks (spans reach the viewer in
     * batches, a second or so after they end). Fails if the order's spans are in more than one trace.
     */
    public List<SpanView> awaitOrderTrace(String orderId, Duration wait, String what, Predicate<List<SpanView>> complete) {
        List<SpanView> spans = Poll.until("the trace of order " + orderId + " to hold " + what, wait, Duration.ofMillis(500),
                () -> {
                    List<String> ids = traceIdsOf(orderId);
                    assertTrue(ids.size() <= 1, "order " + orderId + " is in one trace, not " + ids);
                    return ids.isEmpty() ? List.<SpanView>of() : trace(ids.get(0));
                }, complete);
        assertEquals(List.of(spans.get(0).traceId()), traceIdsOf(orderId), "one trace for order " + orderId);
        return spans;
    }

    /** Whether the trace holds the final transition's span ("order Processed", …) of {@code state}. */
    public static Predicate<List<SpanView>> finished(String state) {
        return spans -> spans.stream().anyMatch(s -> s.name().equalsIgnoreCase("order " + state));
    }

    public static SpanView named(List<SpanView> spans, String name) {
        return find(spans, name).orElseThrow(() -> new AssertionError("no span '" + name + "' in " + spans));
    }

    public static Optional<SpanView> find(List<SpanView> spans, String name) {
        return spans.stream().filter(s -> s.name().equalsIgnoreCase(name)).findFirst();
    }

    public static List<SpanView> children(List<SpanView> spans, SpanView parent) {
        return spans.stream().filter(s -> parent.id().equals(s.parentId())).toList();
    }

    /**
     * The attempts of a finished order's trace, checked: the submission span (outcome created), then for each
     * dispatch span — one per step attempt, all children of the submission span, in {@code operations}' order
     * of their first attempts — the agent's span under it, its call (a client span) under that, and for an
     * attempt that was answered the reply's application under the agent's span; the final transition under the
     * last application. Returns the dispatch spans in time order.
     */
    public static List<SpanView> assertStepAttempts(List<SpanView> spans, String orderId, List<String> operations,
                                                    String finalState) {
        return assertStepAttempts(spans, orderId, operations, finalState, false);
    }

    /**
     * As {@link #assertStepAttempts(List, String, List, String)}; with {@code agentsMayDie}, an attempt whose agent
     * died with its instance (kill -9 mid-call: its span never ended, so never left) may lack the agent's spans,
     * as long as a later attempt at the same operation has them.
     */
    public static List<SpanView> assertStepAttempts(List<SpanView> spans, String orderId, List<String> operations,
                                                    String finalState, boolean agentsMayDie) {
        SpanView submit = named(spans, "submit order");
        assertEquals(orderId, submit.tag("overseer.order.id"), submit.toString());
        assertEquals("created", submit.tag("overseer.outcome"), submit.toString());
        List<SpanView> dispatches = spans.stream().filter(s -> s.name().startsWith("dispatch ")).toList();
        assertFalse(dispatches.isEmpty(), "dispatch spans in " + spans);
        for (SpanView dispatch : dispatches) {
            assertEquals(submit.id(), dispatch.parentId(), "a dispatch is a child of the order's submission: " + dispatch);
            assertEquals("PRODUCER", dispatch.kind(), dispatch.toString());
            assertEquals(orderId, dispatch.tag("overseer.order.id"), dispatch.toString());
            assertTrue(dispatch.timestamp() >= submit.timestamp(), "after the submission: " + dispatch);
        }
        List<String> firstAttempts = dispatches.stream().filter(d -> "1".equals(d.tag("overseer.attempt")))
                .map(d -> d.tag("overseer.operation")).toList();
        assertEquals(operations, firstAttempts, "each step's first attempt, in the workflow's order: " + dispatches);
        SpanView lastApplied = null;
        for (SpanView dispatch : dispatches) {
            String operation = dispatch.tag("overseer.operation");
            Optional<SpanView> worked = children(spans, dispatch).stream().filter(s -> s.name().equalsIgnoreCase(operation))
                    .findFirst();
            boolean retriedLater = dispatches.stream().anyMatch(d -> d.timestamp() > dispatch.timestamp()
                    && operation.equals(d.tag("overseer.operation")));
            if (worked.isEmpty() && agentsMayDie && retriedLater) {
                continue;
            }
            SpanView agent = worked.orElseThrow(() -> new AssertionError("no agent span under " + dispatch + " in " + spans));
            assertEquals("CONSUMER", agent.kind(), agent.toString());
            List<SpanView> underAgent = children(spans, agent);
            assertTrue(underAgent.stream().anyMatch(s -> s.name().equalsIgnoreCase("POST " + operation) && "CLIENT".equals(s.kind())),
                    "the agent's call under " + agent + ": " + underAgent);
            Optional<SpanView> applied = underAgent.stream()
                    .filter(s -> s.name().equalsIgnoreCase("apply " + operation + " reply") && "applied".equals(s.tag("overseer.outcome")))
                    .findFirst();
            if (applied.isPresent()) {
                assertTrue(applied.get().timestamp() >= dispatch.timestamp(), "applied after dispatched: " + applied.get());
                if (lastApplied == null || applied.get().timestamp() > lastApplied.timestamp()) {
                    lastApplied = applied.get();
                }
            }
        }
        assertNotNull(lastApplied, "an applied reply in " + spans);
        SpanView last = named(spans, "order " + finalState);
        assertEquals(lastApplied.id(), last.parentId(), "the final transition under the last reply applied: " + spans);
        return dispatches;
    }

    /**
     * Each call the simulator received for {@code orderId} carried {@code traceId}, and named as its parent one
     * of the trace's client spans (the agent's call) — those the viewer holds; a call whose span was lost with
     * its instance names a span the trace lacks, which {@code allowMissingParents} permits.
     */
    public static void assertCallsCarriedTheTrace(SimulatorApi simulator, String orderId, List<SpanView> spans,
                                                  int expectedCalls, boolean allowMissingParents) {
        List<SimulatorApi.TracedCall> calls = simulator.traceCalls(orderId);
        assertTrue(calls.size() >= expectedCalls, "at least " + expectedCalls + " calls: " + calls);
        String traceId = spans.get(0).traceId();
        var clientSpans = spans.stream().filter(s -> "CLIENT".equals(s.kind())).map(SpanView::id)
                .collect(Collectors.toSet());
        for (SimulatorApi.TracedCall call : calls) {
            assertEquals(traceId, call.traceId(), "the simulator saw the order's trace on " + call);
            if (!allowMissingParents) {
                assertTrue(clientSpans.contains(call.parentSpanId()), "the call's parent is a client span of the trace: "
                        + call + " in " + spans);
            }
        }
    }
}
