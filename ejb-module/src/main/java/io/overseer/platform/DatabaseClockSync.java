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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Measures how far this JVM's clock is from PostgreSQL's, at start and every 30 s, so {@link Clocks} can
 * read the database's time without asking it. Each measurement keeps the tightest of a few readings: a
 * single one, slowed by cold driver code at start or a descheduled thread, can be off by half its round
 * trip. A failed measurement keeps the last offset: clocks drift slowly, and a database that cannot be
 * reached stops the work anyway.
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

    /** Readings per measurement: the shortest round trip of them is kept ({@link DatabaseClock#adjust(java.util.Collection)}). */
    static final int READINGS = 5;
    /**
     * The database's time as microseconds since the epoch: a number, so that no date parsing in the driver
     * (cold at start, and slow then) lies between the answer and {@code receivedAt}.
     */
    static final String CLOCK_SQL = "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint";

    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void atStart() {
        measure(Level.INFO);
    }

    @Schedule(hour = "*", minute = "*", second = "*/30", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sync() {
        measure(Level.FINE);
    }

    private void measure(Level level) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(CLOCK_SQL)) {
            List<DatabaseClock.Reading> readings = new ArrayList<>(READINGS);
            for (int i = 0; i < READINGS; i++) {
                Instant sentAt = Instant.now();
                long micros;
                try (ResultSet row = statement.executeQuery()) {
                    row.next();
                    micros = row.getLong(1);
                }
                Instant receivedAt = Instant.now();
                readings.add(new DatabaseClock.Reading(sentAt, Instant.EPOCH.plus(micros, ChronoUnit.MICROS), receivedAt));
            }
            Duration offset = clocks.databaseClock().adjust(readings);
            LOG.log(offset.abs().compareTo(WARN_ABOVE) > 0 ? Level.WARNING : level,
                    "This JVM''s clock is {0} µs behind the database''s (readings'' round trips, µs: {1})",
                    new Object[] {offset.toNanos() / 1000, readings.stream()
                            .map(r -> String.valueOf(r.roundTrip().toNanos() / 1000)).collect(Collectors.joining(", "))});
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "Could not read the database clock; keeping the last offset", e);
        }
    }
}
