package io.overseer.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 over a plain socket, for what Java's HTTP client will not send or will not show: a forged Host,
 * header bytes it refuses, the reason phrase of the status line. The request is written as given (it
 * should say {@code Connection: close}); the answer is everything the server sends until it closes.
 */
public final class RawHttp {

    private RawHttp() {
    }

    /** One answer: its status line, headers and body as the server wrote them. */
    public record Answer(String text) {
        public String statusLine() {
            return text.substring(0, Math.max(0, text.indexOf("\r\n")));
        }

        /** The value of the first header of that name; fails when there is none. */
        public String header(String name) {
            for (String line : text.split("\r\n")) {
                if (line.isEmpty()) {
                    break;
                }
                if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                    return line.substring(name.length() + 1).trim();
                }
            }
            throw new AssertionError("no " + name + " header in:\n" + text);
        }

        public String body() {
            int end = text.indexOf("\r\n\r\n");
            return end < 0 ? "" : text.substring(end + 4);
        }

        public JsonNode json() {
            try {
                return Http.JSON.readTree(body());
            } catch (IOException e) {
                throw new UncheckedIOException("Not JSON: " + text, e);
            }
        }
    }

    /** Sends {@code request} (bytes as ISO-8859-1, so any octet can be written) and reads the answer. */
    public static Answer exchange(URI server, String request) {
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return new Answer(new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
