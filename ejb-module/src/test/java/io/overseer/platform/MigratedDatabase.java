package io.overseer.platform;

import io.zonky.test.db.postgres.embedded.DatabasePreparer;
import io.zonky.test.db.postgres.junit5.EmbeddedPostgresExtension;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Embedded PostgreSQL (zonky: real binaries from Maven Central) migrated by {@link SchemaMigration} itself,
 * for the database tests (*DbTest). zonky keeps one cluster per preparer, and the preparer is this one
 * object, so a test run starts PostgreSQL once; each test class gets a database cloned from the migrated
 * template, a fresh schema in milliseconds.
 */
public final class MigratedDatabase {

    private static final DatabasePreparer MIGRATIONS = SchemaMigration::apply;

    private MigratedDatabase() {
    }

    /** Register as a static {@code @RegisterExtension} field; {@code getTestDatabase()} is the class's database. */
    public static PreparedDbExtension extension() {
        return EmbeddedPostgresExtension.preparedDatabase(MIGRATIONS);
    }

    /**
     * Waits until {@code count} other sessions of this database wait for a lock — the moment a race is
     * known to have reached the statement that must wait — or fails after 10 s.
     */
    public static void awaitLockWaiters(DataSource db, int count) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int waiting = 0;
        while (System.nanoTime() < deadline) {
            waiting = lockWaiters(db);
            if (waiting >= count) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError(count + " sessions should wait for a lock; " + waiting + " do");
    }

    private static int lockWaiters(DataSource db) throws SQLException {
        try (Connection connection = db.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM pg_stat_activity"
                     + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
