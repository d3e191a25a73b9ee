package io.overseer.platform;

import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The application's one PostgreSQL datasource, reached through a resource reference rather than a
 * server's global JNDI name: {@code @Resource(name = Database.DATA_SOURCE)} declares
 * {@code java:comp/env/jdbc/overseer}, and each server's own descriptor maps it to where that server binds
 * the datasource (glassfish-*.xml: {@code jdbc/overseer}; jboss-*.xml: {@code java:/jdbc/overseer}).
 *
 * <p>A mapping is needed on Payara too: an unmapped DataSource reference resolves to
 * {@code java:comp/DefaultDataSource}, the server's built-in database, without an error.
 */
public final class Database {

    /** The reference's name, and on Payara the global JNDI name it maps to. */
    public static final String DATA_SOURCE = "jdbc/overseer";

    private Database() {
    }

    /**
     * A timestamptz column's value from a native query, in UTC: the driver hands it over as a Timestamp or
     * an OffsetDateTime, depending on its version.
     */
    public static OffsetDateTime utc(Object value) {
        if (value instanceof OffsetDateTime time) {
            return time.withOffsetSameInstant(ZoneOffset.UTC);
        }
        return ((Timestamp) value).toInstant().atOffset(ZoneOffset.UTC);
    }
}
