package io.overseer.chaos;

import io.overseer.chaos.History.StoredOrder;
import io.overseer.chaos.History.Transition;
import io.overseer.launcher.LauncherOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What PostgreSQL holds after the run: every order with its state and its whole history. */
final class StoreReader {

    private final String jdbcUrl;

    StoreReader(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, LauncherOptions.EMBEDDED_DB, LauncherOptions.EMBEDDED_DB);
    }

    /** Orders not yet Processed, Compensated or Error (an order without a state row counts too). */
    long notFinal() throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM customer_order o"
                + " LEFT JOIN order_state s ON s.order_id = o.order_id"
                + " WHERE s.process_state IS NULL OR s.process_state NOT IN ('Processed', 'Compensated', 'Error')");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Status notifications not yet confirmed by the broker: the outbox keeps each until its send is
     * confirmed, and the relay sends it again after 30 s (NotificationRelay), so a row here is one still on
     * its way, not one lost.
     */
    long notificationsUnsent() throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM notification_outbox");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    Map<String, StoredOrder> orders() throws SQLException {
        Map<String, List<Transition>> histories = histories();
        Map<String, StoredOrder> orders = new LinkedHashMap<>();
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT o.order_id, o.customer_id, o.created_at, s.process_state FROM customer_order o"
                        + " LEFT JOIN order_state s ON s.order_id = o.order_id ORDER BY o.created_at");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String id = rs.getString(1);
                String state = rs.getString(4);
                orders.put(id, new StoredOrder(id, rs.getString(2), state == null ? "(no state row)" : state,
                        rs.getTimestamp(3).toInstant(), histories.getOrDefault(id, List.of())));
            }
        }
        return orders;
    }

    private Map<String, List<Transition>> histories() throws SQLException {
        Map<String, List<Transition>> histories = new HashMap<>();
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT order_id, seq, step_name, from_state, to_state, at FROM order_history ORDER BY order_id, seq");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Timestamp at = rs.getTimestamp(6);
                histories.computeIfAbsent(rs.getString(1), id -> new ArrayList<>()).add(new Transition(rs.getInt(2),
                        rs.getString(3), rs.getString(4), rs.getString(5), at.toInstant()));
            }
        }
        return histories;
    }
}
