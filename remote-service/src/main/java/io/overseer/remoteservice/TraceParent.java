package io.overseer.remoteservice;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A W3C {@code traceparent} header of version 00, as a caller's client span sends it. Only a
 * well-formed one is ever kept: anything else comes from a client the simulator must not trust, so it
 * is treated as absent rather than stored, logged or answered back.
 */
record TraceParent(String value) {

    static final String HEADER = "traceparent";
    static final int LENGTH = 55;
    private static final Pattern VERSION_00 = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final String ZERO_TRACE_ID = "0".repeat(32);
    private static final String ZERO_SPAN_ID = "0".repeat(16);

    /**
     * The header's values as received, or null: absent, repeated (the W3C rule: several
     * {@code traceparent} headers make the context invalid), malformed or oversized are all null.
     */
    static TraceParent fromHeaders(List<String> values) {
        return values == null || values.size() != 1 ? null : parse(values.get(0));
    }

    static TraceParent parse(String header) {
        // Length first, so an oversized header costs nothing more than this comparison.
        if (header == null || header.length() != LENGTH || !VERSION_00.matcher(header).matches()) {
            return null;
        }
        TraceParent parsed = new TraceParent(header);
        if (parsed.traceId().equals(ZERO_TRACE_ID) || parsed.parentSpanId().equals(ZERO_SPAN_ID)) {
            return null;
        }
        return parsed;
    }

    String traceId() {
        return value.substring(3, 35);
    }

    String parentSpanId() {
        return value.substring(36, 52);
    }
}
