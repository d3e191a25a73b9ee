package io.overseer.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.overseer.statestore.ProcessState;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListQueryTest {

    @Test
    void defaults() {
        ListQuery query = ListQuery.of(null, null, null);

        assertNull(query.state());
        assertEquals(ListQuery.DEFAULT_LIMIT, query.limit());
        assertNull(query.after());
    }

    @Test
    void aCursorSurvivesTheRoundTrip() {
        var cursor = new ListQuery.Cursor(OffsetDateTime.parse("2026-11-21T22:01:02.123456Z"), "3f0c-id");

        ListQuery query = ListQuery.of("Processed", "200", cursor.encode());

        assertEquals(ProcessState.Processed, query.state());
        assertEquals(200, query.limit());
        assertEquals(cursor, query.after());
    }

    @Test
    void everyBadParameterIsNamed() {
        var e = assertThrows(InvalidRequestException.class, () -> ListQuery.of("processed", "0", "%%%"));

        assertEquals(List.of("state", "limit", "after"), e.errors().stream().map(Problem.FieldError::field).toList());
        for (String limit : List.of("201", "-1", "1.5", "", "99999999999")) {
            assertThrows(InvalidRequestException.class, () -> ListQuery.of(null, limit, null), limit);
        }
    }

    @Test
    void aPageIsCutToTheLimitAndItsLastRowIsWhereTheNextStarts() {
        ListQuery query = ListQuery.of(null, "2", null);
        var position = (java.util.function.Function<String, ListQuery.Cursor>)
                id -> new ListQuery.Cursor(OffsetDateTime.parse("2026-11-21T22:01:02Z"), id);

        assertEquals(3, query.fetch());
        assertEquals(new ListQuery.Page<>(List.of("a", "b"), position.apply("b")), query.page(List.of("a", "b", "c"), position));
        assertEquals(new ListQuery.Page<>(List.of("a", "b"), null), query.page(List.of("a", "b"), position));
        assertEquals(new ListQuery.Page<>(List.of(), null), query.page(List.of(), position));
    }

    @Test
    void theCursorsPositionIsWhatTheListingReadsAfter() {
        var cursor = new ListQuery.Cursor(OffsetDateTime.parse("2026-11-21T22:01:02Z"), "3f0c-id");

        ListQuery query = ListQuery.of(null, null, cursor.encode());

        assertEquals(cursor.createdAt(), query.afterCreatedAt());
        assertEquals("3f0c-id", query.afterOrderId());
        assertNull(ListQuery.of(null, null, null).afterCreatedAt());
        assertNull(ListQuery.of(null, null, null).afterOrderId());
    }

    @Test
    void anAttributeFilterIsNameColonValueAndAnythingElseIsA400() {
        ListQuery query = ListQuery.of(null, null, null, "region:eu-west:1");
        assertEquals("region", query.attributeName());
        assertEquals("eu-west:1", query.attributeValue(), "the value is everything after the first colon");
        assertNull(ListQuery.of(null, null, null, null).attributeName());
        for (String bad : new String[] {"region", ":eu", "region:", "Region:eu", "re gion:eu", "region:" + "x".repeat(101),
                "r".repeat(41) + ":eu", "region:e\u0000u"}) {
            var e = assertThrows(InvalidRequestException.class, () -> ListQuery.of(null, null, null, bad), bad);
            assertEquals("attribute", e.errors().get(0).field(), bad);
        }
    }
}
