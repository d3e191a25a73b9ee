package io.overseer.recurring;

import io.overseer.platform.NativeParameters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The schedules' rows: the one home of the SQL that reads them for firing and writes them. */
@ApplicationScoped
public class Schedules {

    /**
     * The poller's query: ids of up to ?2 schedules whose next tick may fire at ?1, soonest first. Reads the
     * partial index schedule_firing (V22); public so that the database tests run the very text the product runs.
     */
    public static final String FIRING_SQL = "SELECT schedule_id FROM schedule WHERE fire_at IS NOT NULL"
            + " AND paused_reason IS NULL AND fire_at <= ?1 ORDER BY fire_at LIMIT ?2";

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    @SuppressWarnings("unchecked")
    public List<String> firing(OffsetDateTime now, int limit) {
        return em.createNativeQuery(FIRING_SQL).setParameter(1, now).setParameter(2, limit).getResultList();
    }

    /**
     * Locks, until the transaction ends, those of the schedules that may still fire at {@code now}; rows
     * another instance holds are skipped: it is firing them.
     */
    @SuppressWarnings("unchecked")
    List<ScheduleRecord> lockFiring(Collection<String> ids, OffsetDateTime now) {
        var query = em.createNativeQuery("SELECT * FROM schedule WHERE paused_reason IS NULL AND fire_at <= ?1"
                + " AND schedule_id IN (" + NativeParameters.placeholders(2, ids.size()) + ")"
                + " ORDER BY schedule_id FOR UPDATE SKIP LOCKED", ScheduleRecord.class);
        query.setParameter(1, now);
        NativeParameters.bind(query, 2, ids);
        return query.getResultList();
    }

    /** The process state of each of the given orders that is still kept (an order removed after its retention is absent). */
    @SuppressWarnings("unchecked")
    Map<String, String> states(Collection<String> orderIds) {
        if (orderIds.isEmpty()) {
            return Map.of();
        }
        var query = em.createNativeQuery("SELECT order_id, process_state FROM order_state WHERE order_id IN ("
                + NativeParameters.placeholders(1, orderIds.size()) + ")");
        NativeParameters.bind(query, 1, orderIds);
        Map<String, String> states = new java.util.HashMap<>();
        for (Object[] row : (List<Object[]>) query.getResultList()) {
            states.put((String) row[0], (String) row[1]);
        }
        return states;
    }

    /** The schedules, the paused ones, and their ticks fired, missed and skipped for overlapping, all together. */
    public record Totals(long schedules, long paused, long fired, long missed, long overlapped) {
    }

    public Totals totals() {
        Object[] row = (Object[]) em.createNativeQuery("SELECT count(*), count(paused_reason), coalesce(sum(fired_count), 0),"
                + " coalesce(sum(missed_count), 0), coalesce(sum(overlapped_count), 0) FROM schedule").getSingleResult();
        return new Totals(((Number) row[0]).longValue(), ((Number) row[1]).longValue(), ((Number) row[2]).longValue(),
                ((Number) row[3]).longValue(), ((Number) row[4]).longValue());
    }

    public void add(ScheduleRecord schedule) {
        em.persist(schedule);
    }

    /** Every schedule, by id. */
    public List<ScheduleRecord> all() {
        return em.createQuery("SELECT s FROM ScheduleRecord s ORDER BY s.scheduleId", ScheduleRecord.class).getResultList();
    }

    /** Removes a schedule; its orders stay (they carry its id as an attribute). */
    public void remove(ScheduleRecord schedule) {
        em.remove(schedule);
    }

    /** The schedule, locked until the transaction ends (an operator's change waits for a firing of it, and the reverse). */
    public Optional<ScheduleRecord> lock(String id) {
        return Optional.ofNullable(em.find(ScheduleRecord.class, id, jakarta.persistence.LockModeType.PESSIMISTIC_WRITE));
    }

    public Optional<ScheduleRecord> find(String id) {
        return Optional.ofNullable(em.find(ScheduleRecord.class, id));
    }
}
