package io.overseer.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A plain text/event-stream client: reads a Server-Sent Events stream to its end. */
public final class EventStream {

    /** One event: its id, name and data (JSON here). */
    public record Event(String id, String name, String data) {
        public JsonNode json() {
            try {
                return Http.JSON.readTree(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** What the stream answered: status, content type, and every event until the server closed it. */
    public record Result(int status, String contentType, List<Event> events, String body) {
    }

    private EventStream() {
    }

    /** Opens the stream and reads it until the server ends it; fails after {@code timeout}. */
    public static Result read(URI uri, Http.Credentials credentials, String lastEventId, Duration timeout)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream").GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<Stream<String>> response = Http.client().send(Http.authorized(request, credentials).build(),
                HttpResponse.BodyHandlers.ofLines());
        CompletableFuture<List<String>> lines = CompletableFuture.supplyAsync(() -> {
            try (Stream<String> body = response.body()) {
                return body.toList();
            }
        });
        List<String> all = lines.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        String type = response.headers().firstValue("Content-Type").orElse("");
        return new Result(response.statusCode(), type, parse(all), String.join("\n", all));
    }

    /** The events of a text/event-stream body, given as its lines. */
    public static List<Event> parse(List<String> lines) {
        List<Event> events = new ArrayList<>();
        String id = null;
        String name = null;
        StringBuilder data = null;
        for (String line : lines) {
            if (line.isEmpty()) {
                if (data != null) {
                    events.add(new Event(id, name, data.toString()));
                }
                name = null;
                data = null;
            } else if (line.startsWith("id:")) {
                id = line.substring(3).strip();
            } else if (line.startsWith("event:")) {
                name = line.substring(6).strip();
            } else if (line.startsWith("data:")) {
                data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(5).strip());
            }
        }
        if (data != null) {
            events.add(new Event(id, name, data.toString()));
        }
        return events;
    }
}
