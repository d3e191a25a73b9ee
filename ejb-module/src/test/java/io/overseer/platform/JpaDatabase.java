package io.overseer.platform;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The application's persistence unit ("overseer", META-INF/persistence.xml: the same entity classes,
 * provider and batch writing) on a test database, for the database tests that run the product's JPA code
 * — its JPQL, its native queries with their parameter binding, its pessimistic locks — rather than only
 * its SQL text. The one difference from the server: no JTA, so the unit is switched to RESOURCE_LOCAL and
 * a test begins and commits each transaction itself, as the container would around a bean method.
 */
public final class JpaDatabase implements AutoCloseable, AfterAllCallback {

    private final Supplier<DataSource> db;
    private EntityManagerFactory factory;

    private JpaDatabase(Supplier<DataSource> db) {
        this.db = db;
    }

    /** The unit over {@code db}; close it when the test class is done. */
    public static JpaDatabase over(DataSource db) {
        return new JpaDatabase(() -> db);
    }

    /**
     * The unit for a test class, as a static {@code @RegisterExtension} field: opened over {@code db} at
     * its first use (by then the class's database extension has started the database) and closed after
     * the class's last test.
     */
    public static JpaDatabase forClass(Supplier<DataSource> db) {
        return new JpaDatabase(db);
    }

    private synchronized EntityManagerFactory factory() {
        if (factory == null) {
            factory = open(db.get());
        }
        return factory;
    }

    private static EntityManagerFactory open(DataSource db) {
        Map<String, Object> overrides = new HashMap<>();
        overrides.put("jakarta.persistence.transactionType", "RESOURCE_LOCAL");
        overrides.put("jakarta.persistence.jtaDataSource", "");
        if (db instanceof org.postgresql.ds.common.BaseDataSource pg) {
            pg.setReWriteBatchedInserts(true); // as the servers' pools set it (post-boot.asadmin, configure.cli)
        }
        overrides.put("jakarta.persistence.nonJtaDataSource", db);
        overrides.put("eclipselink.target-server", "None");
        // No java agent here, so nothing is woven; WildFly runs the application unwoven too.
        overrides.put("eclipselink.weaving", "false");
        return Persistence.createEntityManagerFactory("overseer", overrides);
    }

    /** Work done in one transaction with an entity manager of its own. */
    @FunctionalInterface
    public interface Work<T> {
        T run(EntityManager em) throws Exception;
    }

    /**
     * Runs {@code work} in a transaction of its own and commits it; rolls back and rethrows if it throws
     * (as a container does for a system exception and for an application exception with rollback).
     */
    public <T> T inTransaction(Work<T> work) throws Exception {
        EntityManager em = factory().createEntityManager();
        EntityTransaction transaction = em.getTransaction();
        try {
            transaction.begin();
            T result = work.run(em);
            transaction.commit();
            return result;
        } finally {
            if (transaction.isActive()) {
                transaction.rollback();
            }
            em.close();
        }
    }

    /**
     * An entity manager whose transaction is begun and left open, for a test that must hold locks while
     * another transaction runs; end it with {@link #end}.
     */
    public EntityManager begin() {
        EntityManager em = factory().createEntityManager();
        em.getTransaction().begin();
        return em;
    }

    /** Commits (or, if {@code commit} is false, rolls back) what {@link #begin} began, and closes it; nothing if it is closed. */
    public static void end(EntityManager em, boolean commit) {
        if (!em.isOpen()) {
            return; // ended already (a test's finally after its own end)
        }
        try {
            if (em.getTransaction().isActive()) {
                if (commit) {
                    em.getTransaction().commit();
                } else {
                    em.getTransaction().rollback();
                }
            }
        } finally {
            em.close();
        }
    }

    @Override
    public synchronized void close() {
        if (factory != null) {
            factory.close();
            factory = null;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }
}
