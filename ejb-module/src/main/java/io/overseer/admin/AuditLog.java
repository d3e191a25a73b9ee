package io.overseer.admin;

import static io.overseer.platform.Database.utc;

import io.overseer.platform.Clocks;
import io.overseer.statestore.ReasonText;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * The operators' audit log: who did what to which order, pause or dead letter, why, and what came of
 * it. Written in the caller's transaction, so an action and its record commit or roll back together.
 */
@Stateless
public class AuditLog {

    /** One entry as the admin API shows it. */
    @JsonbNillable
    @JsonbPropertyOrder({"id", "at", "operator", "action", "target", "reason", "outcome"})
    public record Entry(long id, OffsetDateTime at, String operator, String action, String target, String reason,
                        String outcome) {
    }

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    Clocks clocks;

    public void record(String operator, String action, String target, String reason, String outcome) {
        em.createNativeQuery("INSERT INTO admin_audit (at, operator, action, target, reason, outcome)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
                .setParameter(1, clocks.now())
                .setParameter(2, operator)
                .setParameter(3, action)
                .setParameter(4, cut(target, 300))
                .setParameter(5, cut(reason, 500))
                .setParameter(6, outcome == null ? null : ReasonText.stored(outcome))
                .executeUpdate();
    }

    /** The newest entries first, up to {@code limit}, before entry {@code beforeId} if given. */
    @SuppressWarnings("unchecked")
    public List<Entry> newest(int limit, Long beforeId) {
        List<Object[]> rows = em.createNativeQuery("SELECT id, at, operator, action, target, reason, outcome"
                        + " FROM admin_audit WHERE id < ?1 ORDER BY id DESC LIMIT ?2")
                .setParameter(1, beforeId == null ? Long.MAX_VALUE : beforeId)
                .setParameter(2, limit)
                .getResultList();
        return rows.stream().map(row -> new Entry(((Number) row[0]).longValue(), utc(row[1]), (String) row[2],
                (String) row[3], (String) row[4], (String) row[5], (String) row[6])).toList();
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }

}
