package io.overseer.bench.peers;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The PostgreSQL the peers share: each run gets a fresh schema (dropped and created), and a HikariCP
 * pool whose connections have that schema as their search_path, so a peer's tables never meet the
 * application's or another run's. Both peers get the same kind of pool: a pool is what anyone runs them
 * with, and without one each statement would pay a connection set-up.
 */
final class Database {

    private final String jdbcUrl;
    private final String user;
    private final String password;

    Database(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    void recreateSchema(String schema) throws SQLException {
        execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema);
    }

    void dropSchema(String schema) throws SQLException {
        execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    void execute(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password);
             Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    HikariDataSource pool(String schema, int maxConnections) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(maxConnections);
        config.setPoolName("bench-" + schema);
        config.addDataSourceProperty("currentSchema", schema);
        return new HikariDataSource(config);
    }

    String serverVersion() throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password)) {
            return c.getMetaData().getDatabaseProductVersion();
        }
    }
}
