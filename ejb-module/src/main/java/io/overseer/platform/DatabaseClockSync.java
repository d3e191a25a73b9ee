package io.overseer.platform;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Measures how far this JVM's clock is from PostgreSQL's, at start and every 30 s, so
 * {@link Clocks} can read the database's time without asking it. A failed measurement keeps the last
 * offset: clocks drift slowly, and a database that cannot be reached stops the work anyway.
 */
@Startup
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class DatabaseClockSync {

    private static final Logger LOG = Logger.getLogger(DatabaseClockSync.class.getName());
    private static final Duration WARN_ABOVE = Duration.ofSeconds(1);

    @Resource(name = Database.DATA_SOURCE)
    DataSource dataSource;
    @Inject
    Clocks clocks;

    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void atStart() {
        sync();
    }

    @Schedule(hour = "*", minute = "*", second = "*/30", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sync() {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            Instant sentAt = Instant.now();
            Instant databaseTime;
            try (ResultSet row = statement.executeQuery("SELECT clock_timestamp()")) {
                row.next();
                databaseTime = row.getObject(1, OffsetDateTime.class).toInstant();
            }
            Duration offset = clocks.databaseClock().adjust(sentAt, databaseTime, Instant.now());
            LOG.log(offset.abs().compareTo(WARN_ABOVE) > 0 ? Level.WARNING : Level.FINE,
                    "This JVM''s clock is {0} ms behind the database''s", offset.toMillis());
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "Could not read the database clock; keeping the last offset", e);
        }
    }
}
