package io.overseer.launcher;

import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import zipkin2.Span;
import zipkin2.codec.SpanBytesEncoder;

/**
 * An OTLP/HTTP trace receiver that hands every span on to Zipkin: Payara and WildFly export OTLP only, and
 * Zipkin's server (the one viewer Maven Central serves) reads Zipkin's own formats only. It takes
 * {@code POST /v1/traces} with an {@code ExportTraceServiceRequest} in protobuf (gzipped or not), converts it
 * ({@link OtlpToZipkin}) and posts the spans to Zipkin's {@code /api/v2/spans} before it answers, so an
 * exporter hears of a Zipkin that is down (502, which OTLP exporters retry) instead of losing spans silently.
 *
 * <p>Runs inside the launcher's JVM (a test's too), on loopback, one request at a time: exporters send batches
 * every few seconds, and a bounded body ({@link #MAX_BODY}, compressed and uncompressed) keeps a stray
 * client from filling the launcher's heap. OTLP's JSON encoding is refused (415): the servers are told to
 * send protobuf.
 */
public final class TraceRelay implements AutoCloseable {

    /** The path OTLP/HTTP exporters post traces to, under the endpoint they are given. */
    public static final String TRACES_PATH = "/v1/traces";
    /** Far above a batch of 512 spans (the SDK's default batch size), far below the launcher's heap. */
    static final int MAX_BODY = 8 * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(TraceRelay.class);

    private final HttpServer server;
    private final ExecutorService executor;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI zipkinSpans;
    private final AtomicLong relayed = new AtomicLong();
    private final AtomicBoolean zipkinFailing = new AtomicBoolean();

    private TraceRelay(HttpServer server, ExecutorService executor, URI zipkinSpans) {
        this.server = server;
        this.executor = executor;
        this.zipkinSpans = zipkinSpans;
    }

    /**
     * Listening on {@code address}:{@code port} (0: any free port), relaying to the Zipkin server at
     * {@code zipkinBaseUrl} (e.g. http://127.0.0.1:9411).
     */
    public static TraceRelay start(String address, int port, String zipkinBaseUrl) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 16);
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "overseer-trace-relay");
            t.setDaemon(true);
            return t;
        });
        TraceRelay relay = new TraceRelay(server, executor, URI.create(zipkinBaseUrl + "/api/v2/spans"));
        server.createContext(TRACES_PATH, relay::handle);
        server.setExecutor(executor);
        server.start();
        LOG.info("Trace relay listening at {} (OTLP/HTTP protobuf), relaying to {}", relay.endpoint(), relay.zipkinSpans);
        return relay;
    }

    /** What the servers' {@code otel.exporter.otlp.endpoint} is set to: http://ADDRESS:PORT, no path. */
    public String endpoint() {
        InetSocketAddress a = server.getAddress();
        return "http://" + a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Spans handed to Zipkin so far (accepted by it). */
    public long spansRelayed() {
        return relayed.get();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.sendResponseHeaders(answer(exchange), -1); // OTLP's response message is empty: no body
        }
    }

    /** The HTTP status for one request, every span of it relayed when it is 200. */
    private int answer(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestURI().getPath().equals(TRACES_PATH)) {
            return 404;
        }
        if (!exchange.getRequestMethod().equals("POST")) {
            return 405;
        }
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.startsWith("application/x-protobuf")) {
            return 415;
        }
        byte[] body;
        try (InputStream in = decoded(exchange)) {
            body = in.readNBytes(MAX_BODY + 1);
        }
        if (body.length > MAX_BODY) {
            return 413;
        }
        ExportTraceServiceRequest request;
        try {
            request = ExportTraceServiceRequest.parseFrom(body);
        } catch (InvalidProtocolBufferException e) {
            return 400;
        }
        List<Span> spans = OtlpToZipkin.spans(request);
        return spans.isEmpty() ? 200 : post(spans);
    }

    private static InputStream decoded(HttpExchange exchange) throws IOException {
        InputStream raw = exchange.getRequestBody();
        return "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                ? new GZIPInputStream(raw) : raw;
    }

    /** 200 once Zipkin took them; 502 (which exporters retry) when it did not, said once per outage. */
    private int post(List<Span> spans) {
        HttpRequest request = HttpRequest.newBuilder(zipkinSpans).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(SpanBytesEncoder.JSON_V2.encodeList(spans))).build();
        String failure;
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 == 2) {
                relayed.addAndGet(spans.size());
                if (zipkinFailing.compareAndSet(true, false)) {
                    LOG.info("Zipkin takes spans again");
                }
                return 200;
            }
            failure = "HTTP " + response.statusCode() + " " + response.body();
        } catch (IOException e) {
            failure = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        }
        if (zipkinFailing.compareAndSet(false, true)) {
            LOG.warn("Zipkin at {} refused {} spans ({}); answering 502 until it takes them", zipkinSpans, spans.size(), failure);
        }
        return 502;
    }
}
