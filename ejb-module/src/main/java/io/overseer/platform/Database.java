package io.overseer.platform;

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
}
