package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.PostgresNode;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL fails while orders flow in over REST: killed (SIGKILL, postmaster and backends) and started
 * again from its data directory after 5 s, or one of the application's backends killed, which makes the
 * postmaster end every connection and run crash recovery. The connection pool must re-make its connections
 * by itself; meanwhile submissions are refused at once with 503 and Retry-After, never left hanging, and
 * work in flight is delivered again. What must hold is in {@link OutageScenario}.
 */
class DatabaseOutageIT extends OutageScenario {

    private static final Logger LOG = Logger.getLogger(DatabaseOutageIT.class.getName());
    private static final Duration DOWN = Duration.ofSeconds(5);

    @AfterEach
    void restoreDatabase() throws Exception {
        PostgresNode postgres = TestStack.postgres();
        // PostgreSQL is shared by every system test of this JVM: leave it running, whatever happened.
        if (!postgres.isAlive()) {
            postgres.start();
        }
    }

    @Test
    void databaseKilledAndRestartedHangsNoSubmissionAndProcessingResumes() throws Exception {
        runThrough("db-killed", "PostgreSQL SIGKILL, restart from its data directory after " + DOWN.toSeconds() + " s",
                () -> {
                    PostgresNode postgres = TestStack.postgres();
                    long pid = postgres.pid();
                    postgres.kill9();
                    assertFalse(postgres.isAlive(), "PostgreSQL is dead");
                    LOG.info("PostgreSQL (postmaster pid " + pid + ") killed with SIGKILL");
                    Poll.sleep(DOWN.toMillis()); // the outage's length: part of the scenario
                    postgres.start();
                    LOG.info("PostgreSQL started again (pid " + postgres.pid() + ")");
                });
    }

    @Test
    void backendKilledCrashRecoveryHangsNoSubmissionAndProcessingResumes() throws Exception {
        runThrough("db-backend-killed", "One PostgreSQL backend SIGKILL (every connection ends, crash recovery)", () -> {
            long backend = applicationBackend();
            signalTree(backend, "KILL");
            LOG.info("PostgreSQL backend " + backend + " killed with SIGKILL; waiting for crash recovery");
            // The postmaster notices the dead backend within moments and refuses connections while it
            // recovers; a recovery too quick to be seen refusing is no failure of the scenario.
            try {
                Poll.until("PostgreSQL to refuse connections in crash recovery", Duration.ofSeconds(5), () -> !accepting());
            } catch (AssertionError quick) {
                LOG.info("PostgreSQL was not seen refusing connections: " + quick.getMessage());
            }
            Poll.until("PostgreSQL to accept connections after crash recovery", Duration.ofSeconds(60),
                    DatabaseOutageIT::accepting);
        });
    }

    /** A backend serving one of the application's pooled connections. */
    private static long applicationBackend() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND pid <> pg_backend_pid() AND backend_type = 'client backend' ORDER BY pid LIMIT 1")) {
            assertTrue(rs.next(), "the application holds no connection to PostgreSQL");
            return rs.getLong(1);
        }
    }

    private static boolean accepting() {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SELECT 1");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static Connection connect() throws SQLException {
        PostgresNode postgres = TestStack.postgres();
        return DriverManager.getConnection(postgres.jdbcUrl(), postgres.appUser(), postgres.appPassword());
    }
}
