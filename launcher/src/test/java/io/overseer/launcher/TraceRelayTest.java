package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import zipkin2.Annotation;
import zipkin2.Span;
import zipkin2.codec.SpanBytesDecoder;

/** The relay over real HTTP: protobuf (gzipped as the servers send it) in, Zipkin's v2 JSON out to a fake Zipkin. */
class TraceRelayTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00f067aa0ba902b7";
    private static final String CHILD = "b7ad6b7169203331";
    private static final long START_NANOS = 1_764_300_000_123_456_789L;

    private HttpServer zipkin;
    private final List<byte[]> received = new CopyOnWriteArrayList<>();
    private volatile int zipkinStatus = 202;
    private TraceRelay relay;

    @BeforeEach
    void start() throws IOException {
        zipkin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        zipkin.createContext("/api/v2/spans", exchange -> {
            try (exchange) {
                received.add(exchange.getRequestBody().readAllBytes());
                exchange.sendResponseHeaders(zipkinStatus, -1);
            }
        });
        zipkin.start();
        relay = TraceRelay.start("127.0.0.1", 0, "http://127.0.0.1:" + zipkin.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        relay.close();
        zipkin.stop(0);
    }

    @Test
    void gzippedSpansReachZipkinAsV2Json() throws Exception {
        HttpResponse<byte[]> answer = post(gzip(request().toByteArray()), "application/x-protobuf", true);

        assertEquals(200, answer.statusCode());
        assertEquals(1, received.size());
        List<Span> spans = SpanBytesDecoder.JSON_V2.decodeList(received.get(0));
        assertEquals(2, spans.size());
        Span server = spans.get(0);
        assertEquals(TRACE, server.traceId());
        assertEquals(PARENT, server.id());
        assertNull(server.parentId());
        assertEquals(Span.Kind.SERVER, server.kind());
        assertEquals("post /api/orders", server.name()); // Zipkin lower-cases names
        assertEquals("overseer", server.localServiceName());
        assertEquals(START_NANOS / 1000, server.timestampAsLong());
        assertEquals(42_000, server.durationAsLong());
        assertEquals("202", server.tags().get("http.response.status_code"));
        assertEquals("payara-2", server.tags().get("service.instance.id"));
        assertEquals("a,b", server.tags().get("list"));
        assertEquals("io.smallrye.opentelemetry", server.tags().get("otel.scope.name"));
        assertEquals(List.of(Annotation.create(START_NANOS / 1000 + 5, "claimed: attempt=2")), server.annotations());

        Span child = spans.get(1);
        assertEquals(PARENT, child.parentId());
        assertNull(child.kind()); // internal
        assertEquals(1, child.durationAsLong()); // under a microsecond: still a duration Zipkin shows
        assertEquals("agent timed out", child.tags().get("error"));
        assertEquals(2, relay.spansRelayed());
    }

    @Test
    void zipkinDownIsA502SoTheExporterRetries() throws Exception {
        zipkinStatus = 500;
        assertEquals(502, post(request().toByteArray(), "application/x-protobuf", false).statusCode());
        assertEquals(0, relay.spansRelayed());
        zipkinStatus = 202;
        assertEquals(200, post(request().toByteArray(), "application/x-protobuf", false).statusCode());
        assertEquals(2, relay.spansRelayed());
    }

    @Test
    void refusesWhatItCannotRelay() throws Exception {
        assertEquals(415, post("{}".getBytes(), "application/json", false).statusCode());
        assertEquals(400, post(new byte[] {(byte) 0xff, 0x01, 0x02}, "application/x-protobuf", false).statusCode());
        assertEquals(413, post(gzip(new byte[TraceRelay.MAX_BODY + 1]), "application/x-protobuf", true).statusCode());
        assertTrue(received.isEmpty());
    }

    @Test
    void spansWithoutIdsAreLeftOutNotTheBatch() {
        ExportTraceServiceRequest bad = request().toBuilder()
                .setResourceSpans(0, request().getResourceSpans(0).toBuilder().setScopeSpans(0,
                        request().getResourceSpans(0).getScopeSpans(0).toBuilder().addSpans(
                                io.opentelemetry.proto.trace.v1.Span.newBuilder().setName("no ids")))).build();
        assertEquals(2, OtlpToZipkin.spans(bad).size());
    }

    private HttpResponse<byte[]> post(byte[] body, String type, boolean gzipped) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(relay.endpoint() + TraceRelay.TRACES_PATH))
                .header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (gzipped) {
            b.header("Content-Encoding", "gzip");
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    /** A server span with an event and a child that failed, as an instance of the application reports them. */
    private static ExportTraceServiceRequest request() {
        var server = io.opentelemetry.proto.trace.v1.Span.newBuilder()
                .setTraceId(bytes(TRACE)).setSpanId(bytes(PARENT)).setName("POST /api/orders")
                .setKind(SpanKind.SPAN_KIND_SERVER)
                .setStartTimeUnixNano(START_NANOS).setEndTimeUnixNano(START_NANOS + 42_000_000)
                .addAttributes(kv("http.response.status_code", AnyValue.newBuilder().setIntValue(202).build()))
                .addAttributes(kv("list", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(text("a")).addValues(text("b"))).build()))
                .addEvents(io.opentelemetry.proto.trace.v1.Span.Event.newBuilder().setName("claimed")
                        .setTimeUnixNano(START_NANOS + 5_000)
                        .addAttributes(kv("attempt", AnyValue.newBuilder().setIntValue(2).build())));
        var child = io.opentelemetry.proto.trace.v1.Span.newBuilder()
                .setTraceId(bytes(TRACE)).setSpanId(bytes(CHILD)).setParentSpanId(bytes(PARENT)).setName("call agent")
                .setKind(SpanKind.SPAN_KIND_INTERNAL)
                .setStartTimeUnixNano(START_NANOS + 1_000).setEndTimeUnixNano(START_NANOS + 1_300)
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("agent timed out"));
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder()
                        .addAttributes(kv("service.name", text("overseer")))
                        .addAttributes(kv("service.instance.id", text("payara-2"))))
                .addScopeSpans(ScopeSpans.newBuilder()
                        .setScope(InstrumentationScope.newBuilder().setName("io.smallrye.opentelemetry"))
                        .addSpans(server).addSpans(child)))
                .build();
    }

    private static ByteString bytes(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }

    private static AnyValue text(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    private static KeyValue kv(String key, AnyValue value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }
}
