package io.overseer.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListingSqlTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 28, 7, 0, 0, 0, ZoneOffset.UTC);

    @Test
    void theTextDependsOnWhichFiltersAreSetNotOnTheOrderOfTheCallsAndNumbersItsParametersAsTheyAppear() {
        ListingSql one = ListingSql.of(ListingSql.CONSOLE_COLUMNS).state("Processed").attribute("region", "eu-west")
                .after(T0, "o-1").limit(51);
        ListingSql other = ListingSql.of(ListingSql.CONSOLE_COLUMNS).limit(51).after(T0, "o-1")
                .attribute("region", "eu-west").state("Processed");
        assertEquals(one.sql(), other.sql());
        assertEquals(List.of("region", "eu-west", "Processed", T0, "o-1", 51), one.parameters());
        assertEquals("SELECT " + ListingSql.CONSOLE_COLUMNS + " FROM order_state s JOIN customer_order o"
                + " ON o.order_id = s.order_id JOIN order_attribute a ON a.order_id = s.order_id AND a.name = ?1"
                + " AND a.value = ?2 WHERE TRUE AND s.process_state = ?3 AND (a.created_at, a.order_id) > (?4, ?5)"
                + " ORDER BY a.created_at, a.order_id LIMIT ?6", one.sql());
    }

    @Test
    void aStateWhoseOrdersStayFewDrivesThePageAndEachOrdersAttributeIsReadByItsKey() {
        ListingSql listing = ListingSql.of(ListingSql.CONSOLE_COLUMNS).state("Error").attribute("region", "eu-west")
                .after(T0, "o-1").limit(51);
        assertEquals(List.of("Error", "region", "eu-west", T0, "o-1", 51), listing.parameters());
        assertEquals("SELECT " + ListingSql.CONSOLE_COLUMNS + " FROM order_state s JOIN customer_order o"
                + " ON o.order_id = s.order_id WHERE TRUE AND s.process_state = ?1 AND (SELECT a.value FROM order_attribute a"
                + " WHERE a.order_id = s.order_id AND a.name = ?2) = ?3 AND (s.created_at, s.order_id) > (?4, ?5)"
                + " ORDER BY s.created_at, s.order_id LIMIT ?6", listing.sql());
    }

    @Test
    void withoutAnAttributeTheOrdersOwnPositionOrdersAndPages() {
        ListingSql listing = ListingSql.of(ListingSql.SUMMARY_COLUMNS).state("Pending").after(T0, "o-1").limit(11);
        assertTrue(listing.sql().endsWith(" AND (s.created_at, s.order_id) > (?2, ?3) ORDER BY s.created_at, s.order_id"
                + " LIMIT ?4"), listing.sql());
    }

    @Test
    void theMatchingPartIsTheListingsFiltersWithItsFirstParameters() {
        ListingSql listing = ListingSql.of(ListingSql.SUMMARY_COLUMNS).attribute("batch", "b-1").customer("c-1")
                .minFailures(2).after(T0, "o-1");
        assertTrue(listing.sql().startsWith("SELECT " + ListingSql.SUMMARY_COLUMNS + listing.matchingSql() + " AND ("),
                listing.sql());
        assertEquals(" FROM order_state s JOIN customer_order o ON o.order_id = s.order_id JOIN order_attribute a"
                + " ON a.order_id = s.order_id AND a.name = ?1 AND a.value = ?2 WHERE TRUE AND o.customer_id = ?3"
                + " AND s.failure_count >= ?4", listing.matchingSql());
        assertEquals(List.of("batch", "b-1", "c-1", 2), listing.matchingParameters());
    }
}
