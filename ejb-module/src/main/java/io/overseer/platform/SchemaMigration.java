package io.overseer.platform;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Brings the schema up to date at deployment, before anything reads it. Flyway takes a PostgreSQL
 * advisory lock, so instances starting together migrate once. No JTA transaction: Flyway commits
 * each migration itself.
 *
 * <p>A start during a database failover or restart finds a pooled connection the old primary closed, or no
 * primary yet: the migration is tried again every second while the failure says the database is away
 * ({@link Outage#isOutage}), for up to {@code overseer.startup.database-wait}. Failing at once would fail the
 * deployment, and the server would run on without the application (seen in ./chaos --partitions: an
 * instance restarted while the primary's PostgreSQL was killed).
 */
@Startup
@Singleton
public class SchemaMigration {

    private static final Logger LOG = Logger.getLogger(SchemaMigration.class.getName());
    static final Duration RETRY_EVERY = Duration.ofSeconds(1);

    @Resource(name = Database.DATA_SOURCE)
    DataSource dataSource;

    @Inject
    @ConfigProperty(name = "overseer.startup.database-wait", defaultValue = "PT60S")
    Duration databaseWait;

    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void migrate() {
        MigrateResult result = whileDatabaseAway(() -> apply(dataSource), databaseWait, System::nanoTime, SchemaMigration::pause);
        LOG.info(() -> "Schema at version " + result.targetSchemaVersion
                + " (" + result.migrationsExecuted + " migrations applied now)");
    }

    /**
     * {@code work}, tried again every {@link #RETRY_EVERY} while it fails because the database is away, until
     * {@code wait} has passed since the first try; then, or on any other failure, its failure.
     */
    static <T> T whileDatabaseAway(Supplier<T> work, Duration wait, LongSupplier nanoTime, Runnable pause) {
        long deadline = nanoTime.getAsLong() + wait.toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (RuntimeException e) {
                if (!Outage.isOutage(e) || nanoTime.getAsLong() - deadline >= 0) {
                    throw e;
                }
                if (attempt == 1) {
                    LOG.log(Level.WARNING, "The database is away at deployment ({0}); trying again every {1} s for up to {2}",
                            new Object[] {e, RETRY_EVERY.toSeconds(), wait});
                }
                pause.run();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_EVERY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the database at deployment", e);
        }
    }

    /**
     * The migration the application runs; the database tests build their schema with it too. Not an
     * overload of {@link #migrate()}: Payara finds a lifecycle callback by its name, and given two
     * {@code migrate} methods it called this one and failed the deployment (wrong number of arguments).
     */
    public static MigrateResult apply(DataSource dataSource) {
        return Flyway.configure(SchemaMigration.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
    }
}
