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
        assertEquals("SELECT s.order_id, s.customer_id, s.workflow, s.process_state, s.failure_count, s.last_error,"
                + " s.paused_on, s.created_at, s.updated_at FROM order_attribute a CROSS JOIN LATERAL (SELECT a.order_id,"
                + " a.customer_id, a.workflow, a.process_state, a.failure_count, a.last_error, a.paused_on, a.created_at,"
                + " a.updated_at, a.not_before WHERE a.process_state IS NOT NULL UNION ALL SELECT s.order_id, a.customer_id,"
                + " s.workflow, s.process_state, s.failure_count, s.last_error, s.paused_on, s.created_at, s.updated_at,"
                + " s.not_before FROM order_state s WHERE a.process_state IS NULL AND s.order_id = a.order_id) s"
                + " WHERE a.name = ?1 AND a.value = ?2 AND s.process_state = ?3 AND (a.created_at, a.order_id) > (?4, ?5)"
                + " ORDER BY a.created_at, a.order_id LIMIT ?6", one.sql());
    }

    @Test
    void aStateWhoseOrdersStayFewDrivesThePageAndEachOrdersAttributeIsReadByItsKey() {
        ListingSql listing = ListingSql.of(ListingSql.CONSOLE_COLUMNS).state("Error").attribute("region", "eu-west")
                .customer("c-1").after(T0, "o-1").limit(51);
        assertEquals(List.of("region", "eu-west", "Error", "c-1", T0, "o-1", 51), listing.parameters());
        assertEquals("SELECT s.order_id, a.customer_id, s.workflow, s.process_state, s.failure_count, s.last_error,"
                + " s.paused_on, s.created_at, s.updated_at FROM order_state s JOIN LATERAL (SELECT a.value, a.customer_id"
                + " FROM order_attribute a WHERE a.order_id = s.order_id AND a.name = ?1 AND a.process_state IS NULL"
                + " OFFSET 0) a ON a.value = ?2 WHERE s.process_state = ?3 AND a.customer_id = ?4"
                + " AND (s.created_at, s.order_id) > (?5, ?6) ORDER BY s.created_at, s.order_id LIMIT ?7", listing.sql());
    }

    @Test
    void withoutAnAttributeTheOrderStateAndItsOrderAreRead() {
        ListingSql listing = ListingSql.of(ListingSql.SUMMARY_COLUMNS).customer("c-1");
        assertEquals("SELECT " + ListingSql.qualified(ListingSql.SUMMARY_COLUMNS) + " FROM order_state s"
                + " JOIN customer_order o ON o.order_id = s.order_id WHERE TRUE AND o.customer_id = ?1"
                + " ORDER BY s.created_at, s.order_id LIMIT ?2", listing.sql());
        assertEquals("s.order_id, o.customer_id, s.workflow, s.process_state, s.created_at, s.updated_at, s.not_before",
                ListingSql.qualified(ListingSql.SUMMARY_COLUMNS));
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
        assertTrue(listing.sql().startsWith("SELECT s.order_id, s.customer_id, s.workflow, s.process_state, s.created_at,"
                + " s.updated_at, s.not_before" + listing.matchingSql() + " AND ("), listing.sql());
        assertTrue(listing.matchingSql().startsWith(" FROM order_attribute a CROSS JOIN LATERAL ("), listing.matchingSql());
        assertTrue(listing.matchingSql().endsWith(" WHERE a.name = ?1 AND a.value = ?2 AND a.customer_id = ?3"
                + " AND s.failure_count >= ?4"), listing.matchingSql());
        assertEquals(List.of("batch", "b-1", "c-1", 2), listing.matchingParameters());
    }
}
