package io.overseer.bench.scale;

import io.overseer.query.ListingSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The listing filtered on one business attribute, as the product sends it: the text comes from the
 * product's own {@link ListingSql} (what OrderQueries.list and AdminQueries.list build), with the page
 * size they ask for (a page of 50 is read as LIMIT 51, the extra row telling whether a next page exists).
 * Four pages, over the attributes {@link ScaleData} loads:
 * <ul>
 * <li>attribute-common: GET /api/orders?attribute=region:eu-west, the first page (1/8 of all orders match);
 * <li>attribute-error: the console's listing of the orders in Error in that region (what an operator looks
 *     for among mostly Processed orders: a fixed number wait in Error);
 * <li>attribute-batch: GET /api/orders?attribute=batch:…, a selective value (100 orders);
 * <li>attribute-later-page: region again, the page after a cursor halfway through the orders.
 * </ul>
 */
final class AttributeListings {

    static final int PAGE = 50;

    record Listing(String name, ListingSql sql, Map<String, Object> details) {
    }

    private AttributeListings() {
    }

    /** The four listings; reads the matching counts and the cursor from the loaded schema (search_path). */
    static List<Listing> of(Connection c, int finished) throws Exception {
        String region = ScaleData.REGIONS.get(0);
        String batch = "b-" + (Math.max(finished / 2, 1) - 1) / ScaleData.BATCH;
        Object[] middle = middle(c, finished / 2);
        List<Listing> listings = List.of(
                listing("attribute-common", ListingSql.of(ListingSql.SUMMARY_COLUMNS).attribute("region", region),
                        count(c, "region", region), "API"),
                listing("attribute-error", ListingSql.of(ListingSql.CONSOLE_COLUMNS).attribute("region", region)
                        .state("Error"), count(c, "region", region), "console, state Error"),
                listing("attribute-batch", ListingSql.of(ListingSql.SUMMARY_COLUMNS).attribute("batch", batch),
                        count(c, "batch", batch), "API"),
                listing("attribute-later-page", ListingSql.of(ListingSql.SUMMARY_COLUMNS).attribute("region", region)
                        .after((OffsetDateTime) middle[0], (String) middle[1]), count(c, "region", region),
                        "API, cursor at order " + finished / 2));
        c.rollback();
        return listings;
    }

    private static Listing listing(String name, ListingSql sql, long matching, String what) {
        sql.limit(PAGE + 1);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("listing", what);
        details.put("attribute", sql.parameters().get(0) + ":" + sql.parameters().get(1));
        details.put("matchingOrders", matching);
        return new Listing(name, sql, details);
    }

    private static long count(Connection c, String name, String value) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM order_attribute WHERE name = ? AND value = ?")) {
            ps.setString(1, name);
            ps.setString(2, value);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** (created_at, order_id) of the n-th order in the listing's order: a cursor halfway through. */
    private static Object[] middle(Connection c, int n) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT created_at, order_id FROM order_state"
                + " ORDER BY created_at, order_id OFFSET ? LIMIT 1")) {
            ps.setInt(1, n);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Object[] {rs.getObject(1, OffsetDateTime.class), rs.getString(2)};
            }
        }
    }
}
