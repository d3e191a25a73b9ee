package io.overseer.platform;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.OffsetDateTime;

/** {@link InstanceBeat}'s rows, each write its own transaction (a failed beat must not fail the timer). */
@Stateless
public class InstanceRows {

    private static final Duration FORGOTTEN_AFTER = Duration.ofDays(1);

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    public void beat(String instanceId, OffsetDateTime startedAt, OffsetDateTime now) {
        em.createNativeQuery("INSERT INTO scheduler_instance (instance_id, started_at, last_seen) VALUES (?1, ?2, ?3)"
                        + " ON CONFLICT (instance_id) DO UPDATE SET last_seen = EXCLUDED.last_seen")
                .setParameter(1, instanceId)
                .setParameter(2, startedAt)
                .setParameter(3, now)
                .executeUpdate();
        em.createNativeQuery("DELETE FROM scheduler_instance WHERE last_seen < ?1")
                .setParameter(1, now.minus(FORGOTTEN_AFTER))
                .executeUpdate();
    }

    public void leave(String instanceId) {
        em.createNativeQuery("DELETE FROM scheduler_instance WHERE instance_id = ?1")
                .setParameter(1, instanceId)
                .executeUpdate();
    }
}
