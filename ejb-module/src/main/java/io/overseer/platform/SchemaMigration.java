package io.overseer.platform;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Brings the schema up to date at deployment, before anything reads it. Flyway takes a PostgreSQL
 * advisory lock, so instances starting together migrate once. No JTA transaction: Flyway commits
 * each migration itself.
 */
@Startup
@Singleton
public class SchemaMigration {

    private static final Logger LOG = Logger.getLogger(SchemaMigration.class.getName());

    @Resource(name = Database.DATA_SOURCE)
    DataSource dataSource;

    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void migrate() {
        MigrateResult result = apply(dataSource);
        LOG.info(() -> "Schema at version " + result.targetSchemaVersion
                + " (" + result.migrationsExecuted + " migrations applied now)");
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
