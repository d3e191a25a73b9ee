package io.overseer.submission;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * The submission_key table: which order each (scope, key) created. Callers bring the transaction,
 * the one that writes the order, so a key and its order commit or vanish together.
 *
 * <p>Concurrency: {@code INSERT … ON CONFLICT DO NOTHING} on the primary key. When two transactions
 * insert one key, PostgreSQL makes the second wait for the first: if the first commits, the second
 * inserts nothing and reads the winner's row; if it rolls back, the second inserts. So however many
 * retries race, exactly one creates an order and the rest see it.
 */
@ApplicationScoped
public class SubmissionKeys {

    /** An order created under a key, and the fingerprint of the request that created it. */
    public record Taken(String orderId, String fingerprint) {
    }

    /**
     * ?1 scope, ?2 key, ?3 fingerprint, ?4 order id, ?5 now: one row inserted, or none if the key is taken.
     * Public, as the other statements here, so that the database tests run the very text the product runs.
     */
    public static final String CLAIM_SQL = "INSERT INTO submission_key (scope, idem_key, fingerprint, order_id,"
            + " created_at) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (scope, idem_key) DO NOTHING";
    /** ?1 scope, ?2 key. */
    public static final String FIND_SQL = "SELECT order_id, fingerprint FROM submission_key"
            + " WHERE scope = ?1 AND idem_key = ?2";
    /** ?1 created before, ?2 batch. */
    public static final String PURGE_SQL = "DELETE FROM submission_key WHERE ctid IN (SELECT ctid FROM submission_key"
            + " WHERE created_at < ?1 LIMIT ?2)";

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    /**
     * Records that {@code key} creates {@code orderId}, or, if an earlier submission took the key,
     * returns what it took. The caller then writes the order (first case) or answers with the earlier one.
     */
    public Optional<Taken> claim(SubmissionKey key, String orderId, OffsetDateTime now) {
        // A purge may delete the winner's row between our insert and our read: then try again.
        for (int attempt = 0; attempt < 3; attempt++) {
            int inserted = em.createNativeQuery(CLAIM_SQL)
                    .setParameter(1, key.scope())
                    .setParameter(2, key.key())
                    .setParameter(3, key.fingerprint())
                    .setParameter(4, orderId)
                    .setParameter(5, now)
                    .executeUpdate();
            if (inserted == 1) {
                return Optional.empty();
            }
            Optional<Taken> earlier = find(key);
            if (earlier.isPresent()) {
                return earlier;
            }
        }
        throw new IllegalStateException("submission key neither insertable nor readable: " + key.scope());
    }

    @SuppressWarnings("unchecked")
    private Optional<Taken> find(SubmissionKey key) {
        List<Object[]> rows = em.createNativeQuery(FIND_SQL)
                .setParameter(1, key.scope())
                .setParameter(2, key.key())
                .getResultList();
        return rows.stream().findFirst().map(row -> new Taken((String) row[0], ((String) row[1]).trim()));
    }

    /** Deletes up to {@code batch} keys created before {@code before}; returns how many it deleted. */
    public int purge(OffsetDateTime before, int batch) {
        return em.createNativeQuery(PURGE_SQL)
                .setParameter(1, before)
                .setParameter(2, batch)
                .executeUpdate();
    }
}
