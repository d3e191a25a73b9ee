package io.overseer.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every bad query parameter becomes a field error naming it, all answered in one 400. */
class QueryParametersTest {

    @Test
    void anAbsentParameterIsNullAndAnAbsentLimitItsDefault() {
        QueryParameters query = new QueryParameters();

        assertNull(query.optional("before", null, Long::valueOf, "must be the id of an audit entry"));
        assertEquals(100, query.limit(null, 100, 500));
        query.validate();
    }

    @Test
    void goodValuesParse() {
        QueryParameters query = new QueryParameters();

        assertEquals(Duration.ofMinutes(5), query.optional("olderThan", "PT5M", Duration::parse, "a duration"));
        assertEquals(500, query.limit("500", 100, 500));
        assertEquals(1, query.limit("1", 100, 500));
        query.validate();
    }

    @Test
    void everyBadParameterIsNamedInOrderWithItsMessage() {
        QueryParameters query = new QueryParameters();
        query.limit("0", 100, 500);
        query.optional("before", "x", Long::valueOf, "must be the id of an audit entry");
        query.optional("olderThan", "five minutes", Duration::parse, "must be an ISO-8601 duration");
        query.require(false, "workflow", "must be at most 64 characters");
        query.require(true, "customer", "never added");

        var e = assertThrows(InvalidRequestException.class, query::validate);

        assertEquals("The query is not valid", e.getMessage());
        assertEquals(List.of(new Problem.FieldError("limit", "must be an integer from 1 to 500"),
                new Problem.FieldError("before", "must be the id of an audit entry"),
                new Problem.FieldError("olderThan", "must be an ISO-8601 duration"),
                new Problem.FieldError("workflow", "must be at most 64 characters")), e.errors());
    }

    @Test
    void aLimitOutsideItsRangeOrNotAWholeNumberIsRefused() {
        for (String limit : List.of("501", "0", "-1", "1.5", "", "99999999999")) {
            QueryParameters query = new QueryParameters();
            assertNull(query.limit(limit, 100, 500), limit);
            assertThrows(InvalidRequestException.class, query::validate, limit);
        }
    }
}
