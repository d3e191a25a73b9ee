package io.overseer.remoteservice;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How an affected request misbehaves. */
enum FaultMode {
    /** No fault; a named rule in this mode shields its operation from the {@code "*"} rule. */
    NONE,
    /** Sleep, then answer normally: exercises deadlines and timeouts. */
    LATENCY,
    /** 503, nothing applied: a transient failure worth retrying. */
    ERROR,
    /** Never answer, nothing applied: the caller must time out on its own. */
    HANG,
    /** 422, nothing applied: a nontransient failure that retrying cannot fix. */
    FATAL;

    @JsonValue
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static FaultMode fromWire(String text) {
        for (FaultMode mode : values()) {
            if (mode.wireName().equalsIgnoreCase(text)) {
                return mode;
            }
        }
        throw ProblemException.badRequest("Unknown fault mode '" + text
                + "'; expected none, latency, error, hang or fatal");
    }
}
