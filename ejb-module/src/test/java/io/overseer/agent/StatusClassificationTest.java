package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.agent.api.CallResult.Kind;
import io.overseer.agent.api.CallResult;
import org.junit.jupiter.api.Test;

class StatusClassificationTest {

    private static Kind kind(StatusClassification c, int status) {
        return c.classify(status, "").kind();
    }

    @Test
    void theDefaultRetriesTimeoutsConflictsThrottlingAndServerErrorsAndReportsOtherClientErrors() {
        StatusClassification c = StatusClassification.parse(StatusClassification.DEFAULT);
        assertEquals(Kind.SUCCESS, kind(c, 200));
        assertEquals(Kind.SUCCESS, kind(c, 204));
        for (int status : new int[] {408, 409, 425, 429, 500, 503, 599}) {
            assertEquals(Kind.TRANSIENT, kind(c, status), "status " + status);
        }
        for (int status : new int[] {301, 400, 401, 404, 410, 422}) {
            assertEquals(Kind.NONTRANSIENT, kind(c, status), "status " + status);
        }
    }

    @Test
    void listsRangesAndClassesCanBeCombined() {
        StatusClassification c = StatusClassification.parse(" 423, 502-504 ,4xx");
        assertEquals(Kind.TRANSIENT, kind(c, 423));
        assertEquals(Kind.TRANSIENT, kind(c, 404));
        assertEquals(Kind.TRANSIENT, kind(c, 503));
        assertEquals(Kind.NONTRANSIENT, kind(c, 500), "500 is not listed");
        assertEquals(Kind.NONTRANSIENT, kind(c, 505));
    }

    @Test
    void badEntriesAreRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StatusClassification.parse("503,5x"));
        assertTrue(e.getMessage().contains("'5x'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StatusClassification.parse("700"));
        assertThrows(IllegalArgumentException.class, () -> StatusClassification.parse("2xx"), "success cannot be transient");
        assertThrows(IllegalArgumentException.class, () -> StatusClassification.parse("199-201"));
    }

    @Test
    void detailNamesTheStatusAndAbbreviatesLongBodies() {
        String detail = StatusClassification.parse("5xx").classify(422, "x".repeat(1000)).detail();
        assertEquals("HTTP 422: " + "x".repeat(300) + "…", detail);
    }
}
