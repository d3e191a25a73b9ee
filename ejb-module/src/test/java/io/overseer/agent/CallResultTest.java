package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overseer.agent.CallResult.Kind;
import org.junit.jupiter.api.Test;

class CallResultTest {

    @Test
    void classifiesStatusCodes() {
        assertEquals(Kind.SUCCESS, CallResult.ofStatus(200, "{}").kind());
        assertEquals(Kind.TRANSIENT, CallResult.ofStatus(503, "").kind());
        assertEquals(Kind.TRANSIENT, CallResult.ofStatus(500, "").kind());
        assertEquals(Kind.TRANSIENT, CallResult.ofStatus(429, "").kind());
        assertEquals(Kind.TRANSIENT, CallResult.ofStatus(408, "").kind());
        assertEquals(Kind.NONTRANSIENT, CallResult.ofStatus(422, "no funds").kind());
        assertEquals(Kind.NONTRANSIENT, CallResult.ofStatus(400, "").kind());
    }

    @Test
    void detailNamesTheStatusAndAbbreviatesLongBodies() {
        String detail = CallResult.ofStatus(422, "x".repeat(1000)).detail();
        assertEquals("HTTP 422: " + "x".repeat(300) + "…", detail);
    }
}
