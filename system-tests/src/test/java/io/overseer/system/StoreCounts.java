package io.overseer.system;

import io.overseer.support.Rows;
import io.overseer.support.TestStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the state store holds about one test's orders — those whose customer id starts with the test's
 * prefix, as the system tests of one JVM share the database — counted in SQL. A claim is a task-level
 * Pending → Processing transition in the history; a step's start is its NotStarted → Running one.
 */
final class StoreCounts {

    private static final String CLAIMS = " h.step_name IS NULL AND h.from_state = 'Pending' AND h.to_state = 'Processing'";

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(StoreCounts.class.getName());

    private StoreCounts() {
    }

    /**
     * Waits until {@code orders} of the test's orders rest (Processed, Compensated or Error), asking
     * PostgreSQL about once a second rather than at every poll, and logging the states every
     * {@code progressEvery}, counted from {@code t0} (System.nanoTime()).
     */
    static void awaitAtRest(String prefix, int orders, java.time.Duration limit, java.time.Duration progressEvery,
            long t0) {
        long[] lastQuery = {0};
        long[] lastLog = {System.nanoTime()};
        io.overseer.support.Poll.until("all " + orders + " orders to exist and rest (Processed, Compensated or Error)",
                limit, () -> {
                    if (System.nanoTime() - lastQuery[0] < java.time.Duration.ofSeconds(1).toNanos()) {
                        return false;
                    }
                    lastQuery[0] = System.nanoTime();
                    Map<String, Long> states = states(prefix);
                    if (System.nanoTime() - lastLog[0] >= progressEvery.toNanos()) {
                        LOG.info(String.format("%.0f s: %s", (System.nanoTime() - t0) / 1e9, states));
                        lastLog[0] = System.nanoTime();
                    }
                    return atRest(states) >= orders;
                });
    }

    static long orders(String prefix) {
        return TestStack.scalar("SELECT count(*) FROM customer_order WHERE customer_id LIKE ?", prefix + "%");
    }

    static long distinctCustomers(String prefix) {
        return TestStack.scalar("SELECT count(DISTINCT customer_id) FROM customer_order WHERE customer_id LIKE ?",
                prefix + "%");
    }

    static List<String> orderIds(String prefix) {
        List<String> ids = new ArrayList<>();
        Rows.query("SELECT order_id FROM customer_order WHERE customer_id LIKE ?", prefix + "%",
                rows -> ids.add(rows.getString(1)));
        return ids;
    }

    /** Process state → orders. */
    static Map<String, Long> states(String prefix) {
        Map<String, Long> states = new TreeMap<>();
        Rows.query("SELECT s.process_state, count(*) FROM customer_order o JOIN order_state s ON s.order_id = o.order_id"
                + " WHERE o.customer_id LIKE ? GROUP BY s.process_state", prefix + "%",
                rows -> states.put(rows.getString(1), rows.getLong(2)));
        return states;
    }

    /** Orders at rest: Processed, Compensated or Error, states nothing moves an order out of by itself. */
    static long atRest(Map<String, Long> states) {
        return states.getOrDefault("Processed", 0L) + states.getOrDefault("Compensated", 0L)
                + states.getOrDefault("Error", 0L);
    }

    /** Claims an order had → how many orders had that many. */
    static Map<Long, Long> claimsPerOrder(String prefix) {
        Map<Long, Long> claimsPerOrder = new TreeMap<>();
        Rows.query("SELECT claims, count(*) FROM (SELECT o.order_id, count(h.seq) AS claims FROM customer_order o"
                        + " LEFT JOIN order_history h ON h.order_id = o.order_id AND" + CLAIMS
                        + " WHERE o.customer_id LIKE ? GROUP BY o.order_id) per_order GROUP BY claims", prefix + "%",
                rows -> claimsPerOrder.put(rows.getLong(1), rows.getLong(2)));
        return claimsPerOrder;
    }

    /** Up to ten orders claimed more than once, each with its claims, for a failure message. */
    static List<String> claimedMoreThanOnce(String prefix) {
        List<String> orders = new ArrayList<>();
        Rows.query("SELECT h.order_id, string_agg(h.actor || '@' || h.actor_name || ' seq ' || h.seq, ', ' ORDER BY h.seq)"
                        + " FROM order_history h JOIN customer_order o ON o.order_id = h.order_id"
                        + " WHERE o.customer_id LIKE ? AND" + CLAIMS + " GROUP BY h.order_id HAVING count(*) > 1 LIMIT 10",
                prefix + "%", rows -> orders.add(rows.getString(1) + " [" + rows.getString(2) + "]"));
        return orders;
    }

    /** Instance id (the claim's actor name) → claims it made. */
    static Map<String, Long> claimsByInstance(String prefix) {
        Map<String, Long> claims = new TreeMap<>();
        Rows.query("SELECT h.actor_name, count(*) FROM order_history h JOIN customer_order o ON o.order_id = h.order_id"
                        + " WHERE o.customer_id LIKE ? AND" + CLAIMS + " GROUP BY h.actor_name", prefix + "%",
                rows -> claims.put(rows.getString(1), rows.getLong(2)));
        return claims;
    }

    /**
     * "attempts A, starts S" → steps with A attempts recorded on the step and S starts in its history.
     * Each attempt at a step begins with one start (a compensation's attempts, which begin otherwise, aside),
     * so A = S for every step never compensated, whichever instance claimed it.
     */
    static Map<String, Long> stepAttemptsAndStarts(String prefix) {
        Map<String, Long> steps = new TreeMap<>();
        Rows.query("SELECT attempts, starts, count(*) FROM (SELECT s.attempts, count(h.seq) AS starts"
                        + " FROM step_state s JOIN customer_order o ON o.order_id = s.order_id"
                        + " LEFT JOIN order_history h ON h.order_id = s.order_id AND h.step_name = s.name"
                        + " AND h.from_state = 'NotStarted' AND h.to_state = 'Running'"
                        + " WHERE o.customer_id LIKE ? GROUP BY s.order_id, s.name, s.attempts) per_step"
                        + " GROUP BY attempts, starts", prefix + "%",
                rows -> steps.put(attemptsAndStarts(rows.getLong(1), rows.getLong(2)), rows.getLong(3)));
        return steps;
    }

    static String attemptsAndStarts(long attempts, long starts) {
        return "attempts " + attempts + ", starts " + starts;
    }
}
