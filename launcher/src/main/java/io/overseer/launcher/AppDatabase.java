package io.overseer.launcher;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's role and database in a PostgreSQL the launcher starts (embedded or replicated),
 * created once over a superuser connection; idempotent, so a restart only checks.
 */
public final class AppDatabase {

    private static final Logger LOG = LoggerFactory.getLogger(AppDatabase.class);

    private AppDatabase() {
    }

    /**
     * Creates the login role and the database it owns when missing. The role may read the server's
     * statistics (pg_monitor): the console shows which node serves and how its standbys replicate.
     */
    public static void ensure(Connection superuser, String user, String password, String database) throws SQLException {
        try (Statement s = superuser.createStatement()) {
            if (!exists(superuser, "SELECT 1 FROM pg_roles WHERE rolname = ?", user)) {
                s.execute("CREATE ROLE " + ident(user) + " LOGIN PASSWORD '" + password.replace("'", "''") + "'");
                LOG.info("Created role {}", user);
            }
            s.execute("GRANT pg_monitor TO " + ident(user));
            if (!exists(superuser, "SELECT 1 FROM pg_database WHERE datname = ?", database)) {
                s.execute("CREATE DATABASE " + ident(database) + " OWNER " + ident(user));
                LOG.info("Created database {}", database);
            }
        }
    }

    private static boolean exists(Connection c, String sql, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String ident(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
