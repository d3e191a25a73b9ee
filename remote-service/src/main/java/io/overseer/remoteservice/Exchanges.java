package io.overseer.remoteservice;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Reading requests and writing JSON answers on a JDK {@link HttpExchange}. */
final class Exchanges {

    static final String JSON = "application/json";
    // Payloads are small business documents; a cap keeps a bad client from exhausting memory.
    private static final int MAX_BODY_BYTES = 1 << 20;

    private Exchanges() {
    }

    static byte[] readBody(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw ProblemException.badRequest("Request body exceeds " + MAX_BODY_BYTES + " bytes");
            }
            return body;
        }
    }

    static void sendJson(HttpExchange exchange, int status, Object body) throws IOException {
        send(exchange, status, JSON, Json.MAPPER.writeValueAsBytes(body));
    }

    static void sendProblem(HttpExchange exchange, ProblemException failure) throws IOException {
        if (failure.allow() != null) {
            exchange.getResponseHeaders().set("Allow", failure.allow());
        }
        Problem problem = failure.problem().at(exchange.getRequestURI().getRawPath());
        send(exchange, problem.status(), Problem.MEDIA_TYPE, Json.MAPPER.writeValueAsBytes(problem));
    }

    static void sendNoContent(HttpExchange exchange) throws IOException {
        exchange.sendResponseHeaders(204, -1);
        exchange.close();
    }

    static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> parameters = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            parameters.putIfAbsent(decode(name), decode(value));
        }
        return parameters;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ProblemException.badRequest("Malformed query string");
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body)
            throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
