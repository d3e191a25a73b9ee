package io.overseer.platform;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the product's native SQL — the public statement constants, written for JPA with numbered
 * parameters (?1, ?2 …, each usable more than once) — through plain JDBC, so the database tests execute
 * the very text the application sends instead of a copy that could drift.
 */
public final class NativeSql {

    private static final Pattern NUMBERED = Pattern.compile("\\?(\\d+)");

    private NativeSql() {
    }

    /** Executes an INSERT, UPDATE or DELETE; returns the rows it changed. */
    public static int update(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    /** The first column of every row (a query, or a statement with RETURNING). */
    public static List<Object> column(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters);
             ResultSet rows = statement.executeQuery()) {
            List<Object> values = new ArrayList<>();
            while (rows.next()) {
                values.add(rows.getObject(1));
            }
            return values;
        }
    }

    /** The first column of every row, as strings. */
    public static List<String> strings(Connection connection, String sql, Object... parameters) throws SQLException {
        return column(connection, sql, parameters).stream().map(String::valueOf).toList();
    }

    /**
     * Binds the numbered parameters positionally. Every number must have a value and every value a
     * number, so a statement that gains or loses a parameter fails its test rather than running half-bound.
     */
    public static PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
        Matcher numbered = NUMBERED.matcher(sql);
        StringBuilder jdbc = new StringBuilder();
        List<Integer> order = new ArrayList<>();
        while (numbered.find()) {
            order.add(Integer.parseInt(numbered.group(1)));
            numbered.appendReplacement(jdbc, "?");
        }
        numbered.appendTail(jdbc);
        if (order.stream().distinct().count() != parameters.length
                || order.stream().anyMatch(n -> n < 1 || n > parameters.length)) {
            throw new IllegalArgumentException(parameters.length + " values for the parameters " + order + " of " + sql);
        }
        PreparedStatement statement = connection.prepareStatement(jdbc.toString());
        for (int i = 0; i < order.size(); i++) {
            statement.setObject(i + 1, parameters[order.get(i) - 1]);
        }
        return statement;
    }
}
