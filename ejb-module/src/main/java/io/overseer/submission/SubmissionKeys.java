package io.overseer.submission;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
    /**
     * A batch's keys in one statement: ?1 scope, ?2 a JSON array of {@code {"k": key, "f": fingerprint, "o":
     * order id}}, ?3 now; returns the keys it inserted. Inserted in key order, so that batches racing over
     * the same keys wait on each other in one order and never deadlock.
     */
    public static final String CLAIM_ALL_SQL = "INSERT INTO submission_key (scope, idem_key, fingerprint, order_id,"
            + " created_at) SELECT CAST(?1 AS text), w.k, w.f, w.o, CAST(?3 AS timestamptz)"
            + " FROM jsonb_to_recordset(CAST(?2 AS jsonb)) AS w(k text, f text, o text) ORDER BY w.k"
            + " ON CONFLICT (scope, idem_key) DO NOTHING RETURNING idem_key";
    /** ?1 scope, ?2 a JSON array of keys: the keys' rows. */
    public static final String FIND_ALL_SQL = "SELECT idem_key, order_id, fingerprint FROM submission_key"
            + " WHERE scope = CAST(?1 AS text) AND idem_key IN (SELECT jsonb_array_elements_text(CAST(?2 AS jsonb)))";
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

    /**
     * {@link #claim} for many keys of one scope at once, in one statement ({@link #CLAIM_ALL_SQL}) and, if
     * some were taken already, one read of those ({@link #FIND_ALL_SQL}): what {@code wanted} maps to an
     * order id (key to order) is recorded for the keys nobody took; the answer holds what earlier
     * submissions took for the others. The keys must be distinct.
     */
    public Map<String, Taken> claimAll(String scope, Map<String, Taken> wanted, OffsetDateTime now) {
        Map<String, Taken> earlier = new HashMap<>();
        Map<String, Taken> left = wanted;
        // A purge may delete a winner's row between our insert and our read: then try those keys again.
        for (int attempt = 0; attempt < 3 && !left.isEmpty(); attempt++) {
            Set<String> inserted = insertAll(scope, left, now);
            Map<String, Taken> missed = new LinkedHashMap<>();
            left.forEach((key, taken) -> {
                if (!inserted.contains(key)) {
                    missed.put(key, taken);
                }
            });
            if (!missed.isEmpty()) {
                earlier.putAll(findAll(scope, missed.keySet()));
            }
            missed.keySet().removeAll(earlier.keySet());
            left = missed;
        }
        if (!left.isEmpty()) {
            throw new IllegalStateException("submission keys neither insertable nor readable: " + scope);
        }
        return earlier;
    }

    @SuppressWarnings("unchecked")
    private Set<String> insertAll(String scope, Map<String, Taken> wanted, OffsetDateTime now) {
        JsonArrayBuilder rows = jakarta.json.Json.createArrayBuilder();
        wanted.forEach((key, taken) -> rows.add(jakarta.json.Json.createObjectBuilder()
                .add("k", key).add("f", taken.fingerprint()).add("o", taken.orderId())));
        List<Object> inserted = em.createNativeQuery(CLAIM_ALL_SQL)
                .setParameter(1, scope)
                .setParameter(2, rows.build().toString())
                .setParameter(3, now)
                .getResultList();
        Set<String> keys = new HashSet<>();
        inserted.forEach(row -> keys.add(row instanceof Object[] columns ? (String) columns[0] : (String) row));
        return keys;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Taken> findAll(String scope, Set<String> keys) {
        JsonArrayBuilder names = jakarta.json.Json.createArrayBuilder();
        keys.forEach(names::add);
        List<Object[]> rows = em.createNativeQuery(FIND_ALL_SQL)
                .setParameter(1, scope)
                .setParameter(2, names.build().toString())
                .getResultList();
        Map<String, Taken> found = new HashMap<>();
        rows.forEach(row -> found.put((String) row[0], new Taken((String) row[1], ((String) row[2]).trim())));
        return found;
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
