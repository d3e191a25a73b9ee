package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceParentTest {

    static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void wellFormedVersion00IsKeptAndSplit() {
        TraceParent parsed = TraceParent.parse(VALID);

        assertEquals(VALID, parsed.value());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", parsed.traceId());
        assertEquals("00f067aa0ba902b7", parsed.parentSpanId());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01", // upper case
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // zero span id
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // another version
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // the forbidden version
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-", // 56 characters
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",   // 54 characters
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01", // not hex
        "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01", // separators
        "00-4bf92f3577b34da6a3ce929d0e0e47360-0f067aa0ba902b7-01", // fields shifted
        " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0"  // padded
    })
    void anythingElseIsAbsent(String header) {
        assertNull(TraceParent.parse(header));
    }

    @Test
    void oversizedAndMissingAreAbsent() {
        assertNull(TraceParent.parse(VALID + "x".repeat(100_000)));
        assertNull(TraceParent.parse(null));
        assertNull(TraceParent.fromHeaders(null));
        assertNull(TraceParent.fromHeaders(List.of()));
    }

    @Test
    void repeatedHeadersAreAbsentEvenWhenEachIsValid() {
        assertEquals(VALID, TraceParent.fromHeaders(List.of(VALID)).value());
        assertNull(TraceParent.fromHeaders(List.of(VALID, VALID)));
    }
}
