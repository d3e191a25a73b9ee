package io.overseer.launcher;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import zipkin2.Endpoint;
import zipkin2.Span;

/**
 * OTLP spans as Zipkin v2 spans, for {@link TraceRelay}: the mapping of OpenTelemetry's own Zipkin exporter
 * (ids as lower-case hex, times in microseconds, attributes and the resource's attributes as string tags, events
 * as annotations, an error status as the {@code error} tag Zipkin's UI marks red, the resource's
 * {@code service.name} as the local endpoint's service). A span whose ids Zipkin would refuse is left out rather
 * than failing the others of its batch.
 */
final class OtlpToZipkin {

    static final String SERVICE_NAME = "service.name";
    /** What OpenTelemetry's SDK calls a service it was not told the name of. */
    static final String UNKNOWN_SERVICE = "unknown_service";
    private static final HexFormat HEX = HexFormat.of();

    private OtlpToZipkin() {
    }

    static List<Span> spans(ExportTraceServiceRequest request) {
        List<Span> out = new ArrayList<>();
        for (ResourceSpans rs : request.getResourceSpansList()) {
            Endpoint local = Endpoint.newBuilder().serviceName(serviceName(rs.getResource())).build();
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (io.opentelemetry.proto.trace.v1.Span s : ss.getSpansList()) {
                    try {
                        Span span = span(s, local, rs.getResource(), ss.getScope().getName());
                        if (span != null) {
                            out.add(span);
                        }
                    } catch (IllegalArgumentException e) {
                        // Zipkin's builder refused it (e.g. an id of zeros): the rest of the batch still counts
                    }
                }
            }
        }
        return out;
    }

    private static Span span(io.opentelemetry.proto.trace.v1.Span s, Endpoint local, Resource resource, String scope) {
        if (s.getTraceId().size() != 16 || s.getSpanId().size() != 8) {
            return null; // Zipkin's ids are 16 or 32 hex digits and 16: an OTLP span without them is malformed
        }
        long startMicros = s.getStartTimeUnixNano() / 1000;
        // Zipkin reads a duration of 0 as "unknown": a span that took less than a microsecond took one.
        long durationMicros = Math.max(1, (s.getEndTimeUnixNano() - s.getStartTimeUnixNano()) / 1000);
        Span.Builder b = Span.newBuilder()
                .traceId(HEX.formatHex(s.getTraceId().toByteArray()))
                .id(HEX.formatHex(s.getSpanId().toByteArray()))
                .name(s.getName())
                .kind(kind(s.getKind()))
                .timestamp(startMicros)
                .duration(durationMicros)
                .localEndpoint(local);
        if (s.getParentSpanId().size() == 8) {
            b.parentId(HEX.formatHex(s.getParentSpanId().toByteArray()));
        }
        for (KeyValue kv : resource.getAttributesList()) {
            if (!kv.getKey().equals(SERVICE_NAME)) {
                b.putTag(kv.getKey(), text(kv.getValue()));
            }
        }
        if (!scope.isEmpty()) {
            b.putTag("otel.scope.name", scope);
        }
        for (KeyValue kv : s.getAttributesList()) {
            b.putTag(kv.getKey(), text(kv.getValue()));
        }
        for (io.opentelemetry.proto.trace.v1.Span.Event e : s.getEventsList()) {
            b.addAnnotation(e.getTimeUnixNano() / 1000, e.getAttributesCount() == 0 ? e.getName()
                    : e.getName() + ": " + e.getAttributesList().stream().map(kv -> kv.getKey() + "=" + text(kv.getValue()))
                            .collect(Collectors.joining(", ")));
        }
        if (s.getStatus().getCode() == Status.StatusCode.STATUS_CODE_ERROR) {
            String message = s.getStatus().getMessage();
            b.putTag("otel.status_code", "ERROR");
            b.putTag("error", message.isEmpty() ? "true" : message);
        }
        return b.build();
    }

    /** Zipkin has four kinds; an internal span (and one of no stated kind) is a span without one. */
    static Span.Kind kind(io.opentelemetry.proto.trace.v1.Span.SpanKind kind) {
        return switch (kind) {
            case SPAN_KIND_SERVER -> Span.Kind.SERVER;
            case SPAN_KIND_CLIENT -> Span.Kind.CLIENT;
            case SPAN_KIND_PRODUCER -> Span.Kind.PRODUCER;
            case SPAN_KIND_CONSUMER -> Span.Kind.CONSUMER;
            default -> null;
        };
    }

    private static String serviceName(Resource resource) {
        return resource.getAttributesList().stream().filter(kv -> kv.getKey().equals(SERVICE_NAME))
                .map(kv -> text(kv.getValue())).filter(n -> !n.isEmpty()).findFirst().orElse(UNKNOWN_SERVICE);
    }

    /** Zipkin's tags are strings: an array as its elements joined by commas, as OpenTelemetry's exporter writes it. */
    static String text(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case INT_VALUE -> Long.toString(v.getIntValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            case BYTES_VALUE -> Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
            case ARRAY_VALUE -> v.getArrayValue().getValuesList().stream().map(OtlpToZipkin::text)
                    .collect(Collectors.joining(","));
            case KVLIST_VALUE -> v.getKvlistValue().getValuesList().stream()
                    .map(kv -> kv.getKey() + "=" + text(kv.getValue())).collect(Collectors.joining(",", "{", "}"));
            default -> "";
        };
    }
}
