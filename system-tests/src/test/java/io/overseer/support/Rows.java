package io.overseer.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads what PostgreSQL holds, for tests that check the state store itself rather than the API. */
public final class Rows {

    /** Handles one row of a result. */
    public interface Handler {
        void row(ResultSet rows) throws SQLException;
    }

    private Rows() {
    }

    /** Runs {@code sql} with its one string parameter on the test stack's database, a row at a time. */
    public static void query(String sql, String parameter, Handler handler) {
        try (Connection db = TestStack.db(); PreparedStatement query = db.prepareStatement(sql)) {
            query.setString(1, parameter);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    handler.row(rows);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
