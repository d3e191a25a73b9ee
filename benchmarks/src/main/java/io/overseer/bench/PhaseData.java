package io.overseer.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the state store recorded about one phase's orders (told apart by their customerId prefix),
 * read once after the phase: each order's history timestamps and its final state. Every figure and check
 * of the phase is computed from this, so the server is never polled while it works.
 */
final class PhaseData {

    /** One order as order_history tells it; times in epoch microseconds. */
    static final class OrderTrace {
        final String orderId;
        String customerId;
        String state;
        long submittedAt = Long.MAX_VALUE;  // first history row
        long firstClaimAt = Long.MAX_VALUE; // task Pending -> Processing
        long processedAt = -1;              // task -> Processed
        int processedRows;
        final Set<String> completedSteps = new HashSet<>();
        final Map<String, Long> stepRequestedAt = new HashMap<>(); // step -> Running: its request committed with this
        final Map<String, Long> stepCompletedAt = new HashMap<>(); // step -> Completed: its reply applied
        int stepStarts;                                            // -> Running rows, a step's retries included

        OrderTrace(String orderId) {
            this.orderId = orderId;
        }
    }

    final Map<String, OrderTrace> orders = new HashMap<>();
    final List<Long> stepCompletions = new ArrayList<>();
    final Map<String, Integer> customers = new HashMap<>();

    static PhaseData read(Db db, String customerPrefix) throws SQLException {
        PhaseData d = new PhaseData();
        String like = customerPrefix.replace("_", "\\_") + "%";
        try (Connection c = db.connect()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT o.order_id, o.customer_id, s.process_state FROM customer_order o
                    LEFT JOIN order_state s ON s.order_id = o.order_id WHERE o.customer_id LIKE ?""")) {
                ps.setString(1, like);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        OrderTrace t = d.orders.computeIfAbsent(rs.getString(1), OrderTrace::new);
                        t.customerId = rs.getString(2);
                        t.state = rs.getString(3);
                        d.customers.merge(t.customerId, 1, Integer::sum);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT h.order_id, h.at, h.step_name, h.from_state, h.to_state FROM order_history h
                    JOIN customer_order o ON o.order_id = h.order_id WHERE o.customer_id LIKE ?""")) {
                ps.setString(1, like);
                ps.setFetchSize(10_000);
                c.setAutoCommit(false); // the driver streams with a fetch size only inside a transaction
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        d.add(rs.getString(1), micros(rs.getTimestamp(2)), rs.getString(3), rs.getString(4), rs.getString(5));
                    }
                }
                c.commit();
            }
        }
        return d;
    }

    // package-private: PhaseDataTest feeds it rows
    void add(String orderId, long at, String step, String from, String to) {
        OrderTrace t = orders.computeIfAbsent(orderId, OrderTrace::new);
        t.submittedAt = Math.min(t.submittedAt, at);
        if (step == null && "Pending".equals(from) && "Processing".equals(to)) {
            t.firstClaimAt = Math.min(t.firstClaimAt, at);
        }
        if (step == null && "Processed".equals(to)) {
            t.processedAt = Math.max(t.processedAt, at);
            t.processedRows++;
        }
        if (step != null && "Running".equals(to)) {
            t.stepStarts++;
            t.stepRequestedAt.merge(step, at, Math::min);
        }
        if (step != null && "Completed".equals(to)) {
            t.completedSteps.add(step);
            t.stepCompletedAt.put(step, at);
            stepCompletions.add(at);
        }
    }

    /**
     * Where a processed order's time went, hop by hop, in milliseconds (each list sorted): submitted → claimed
     * (the submission's commit, the dispatch hint, the scheduler's claim); for every step, its request →
     * its reply applied (the request's commit and delivery, the agent, the remote call, the reply's delivery and
     * the transaction that applies it); the last reply → Processed. A step's next one starts, and the order
     * ends, in the transaction that applies the reply, so nothing else lies between these hops. Orders whose
     * steps ran more than once (a retry) are left out: their round trips would mix attempts.
     */
    Hops hops() {
        List<Double> toClaim = new ArrayList<>();
        List<Double> roundTrips = new ArrayList<>();
        List<Double> toProcessed = new ArrayList<>();
        for (OrderTrace t : orders.values()) {
            if (t.processedAt <= 0 || t.processedRows != 1 || t.firstClaimAt == Long.MAX_VALUE
                    || t.stepStarts != t.stepRequestedAt.size()
                    || !t.stepRequestedAt.keySet().equals(t.stepCompletedAt.keySet())) {
                continue;
            }
            toClaim.add((t.firstClaimAt - t.submittedAt) / 1000.0);
            long lastReply = Long.MIN_VALUE;
            for (Map.Entry<String, Long> step : t.stepRequestedAt.entrySet()) {
                long completed = t.stepCompletedAt.get(step.getKey());
                roundTrips.add((completed - step.getValue()) / 1000.0);
                lastReply = Math.max(lastReply, completed);
            }
            if (lastReply != Long.MIN_VALUE) {
                toProcessed.add((t.processedAt - lastReply) / 1000.0);
            }
        }
        toClaim.sort(null);
        roundTrips.sort(null);
        toProcessed.sort(null);
        return new Hops(toClaim, roundTrips, toProcessed);
    }

    /** {@link #hops()}: milliseconds per hop, each list sorted. */
    record Hops(List<Double> submittedToClaimed, List<Double> stepRoundTrips, List<Double> lastReplyToProcessed) {
        static final Hops NONE = new Hops(List.of(), List.of(), List.of());
    }

    private static long micros(java.sql.Timestamp ts) {
        return ts.getTime() / 1000 * 1_000_000 + ts.getNanos() / 1000;
    }

    long firstSubmit() {
        return orders.values().stream().mapToLong(t -> t.submittedAt).min().orElse(0);
    }

    long firstClaim() {
        return orders.values().stream().mapToLong(t -> t.firstClaimAt).min().orElse(0);
    }

    long lastSubmit() {
        return orders.values().stream().mapToLong(t -> t.submittedAt).max().orElse(0);
    }

    long lastProcessed() {
        return orders.values().stream().mapToLong(t -> t.processedAt).max().orElse(0);
    }

    /** Submit -> Processed of every processed order, in milliseconds. */
    List<Double> latenciesMs() {
        List<Double> out = new ArrayList<>();
        for (OrderTrace t : orders.values()) {
            if (t.processedAt > 0) {
                out.add((t.processedAt - t.submittedAt) / 1000.0);
            }
        }
        return out;
    }

    /** Orders Processed at or after {@code fromMicros}. */
    long processedSince(long fromMicros) {
        return orders.values().stream().filter(t -> t.processedAt >= fromMicros).count();
    }
}
