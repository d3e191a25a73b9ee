package io.overseer.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polling helpers for readiness: a port that accepts, a URL that answers 200, while the process lives. */
public final class Wait {

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private Wait() {
    }

    /**
     * Polls {@code ready} every 250 ms until it holds. Fails at once if {@code alive} turns false (waiting the
     * full timeout for a dead process helps nobody), and at the timeout, both with {@code diagnostics}.
     */
    public static void until(String what, Duration timeout, BooleanSupplier ready, BooleanSupplier alive,
                             Supplier<String> diagnostics) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (ready.getAsBoolean()) {
                return;
            }
            if (!alive.getAsBoolean()) {
                throw new IllegalStateException(what + ": process died before it was ready. Last log lines:\n"
                        + diagnostics.get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + ": not ready after " + timeout.toSeconds()
                        + " s. Last log lines:\n" + diagnostics.get());
            }
            sleep(250);
        }
    }

    public static boolean portOpen(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** HTTP status of a GET, or -1 when nothing answers. */
    public static int httpStatus(String url) {
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build();
            return HTTP.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Whether a GET answers 200 with a body that contains {@code text}. */
    /** One answer to a GET: its status and body. */
    public record Answer(int status, String body) {
        public boolean okContaining(String text) {
            return status == 200 && body.contains(text);
        }
    }

    public static boolean httpOkContaining(String url, String text) {
        Answer answer = httpGet(url);
        return answer != null && answer.okContaining(text);
    }

    /** Whatever the URL answers (any status), or null when nothing answers. */
    public static Answer httpGet(String url) {
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build();
            HttpResponse<String> response = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
