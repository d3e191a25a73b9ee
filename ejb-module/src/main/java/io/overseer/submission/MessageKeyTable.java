package io.overseer.submission;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * {@link MessageKeys} in the message_key table. {@code INSERT … ON CONFLICT DO NOTHING} on the primary
 * key: PostgreSQL makes a second transaction inserting the same key wait for the first; if the first
 * commits, the second inserts nothing and reads the winner's row (a new statement sees the commit).
 */
@ApplicationScoped
public class MessageKeyTable implements MessageKeys {

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    @Override
    public Optional<Taken> claim(String scope, String key, String fingerprint, String orderId, OffsetDateTime now) {
        int inserted = em.createNativeQuery("INSERT INTO message_key (scope, idem_key, fingerprint, order_id, created_at)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (scope, idem_key) DO NOTHING")
                .setParameter(1, scope)
                .setParameter(2, key)
                .setParameter(3, fingerprint)
                .setParameter(4, orderId)
                .setParameter(5, now)
                .executeUpdate();
        if (inserted == 1) {
            return Optional.empty();
        }
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("SELECT order_id, fingerprint FROM message_key"
                        + " WHERE scope = ?1 AND idem_key = ?2")
                .setParameter(1, scope)
                .setParameter(2, key)
                .getResultList();
        return rows.stream().findFirst().map(row -> new Taken((String) row[0], ((String) row[1]).trim()));
    }
}
