package io.overseer.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** JDBC to the stack's PostgreSQL: the application database, and the superuser for the peers' database. */
final class Db {

    /** zonky's initdb makes the superuser postgres with trust authentication on loopback. */
    static final String SUPERUSER = "postgres";
    static final String PEERS_DB = "bench_peers";
    static final String PEERS_USER = "bench";
    static final String PEERS_PASSWORD = "bench";

    private final String url;
    private final String user;
    private final String password;

    Db(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    long count(String sql, Object... params) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    String text(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** A database for the peers on the same server, owned by its own role; created afresh. */
    static void createPeersDatabase(String postgresUrl) throws SQLException {
        try (Connection c = DriverManager.getConnection(postgresUrl, SUPERUSER, ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + PEERS_DB);
            s.execute("DROP ROLE IF EXISTS " + PEERS_USER);
            // Superuser so that PgbenchCeiling may CHECKPOINT before each client count; a throwaway, loopback-only cluster.
            s.execute("CREATE ROLE " + PEERS_USER + " LOGIN SUPERUSER PASSWORD '" + PEERS_PASSWORD + "'");
            s.execute("CREATE DATABASE " + PEERS_DB + " OWNER " + PEERS_USER);
        }
    }
}
