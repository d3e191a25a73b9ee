package io.overseer.admin;

import static io.overseer.platform.Database.utc;

import io.overseer.platform.Clocks;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * What the console's Instances page reads: the scheduler instances and what each holds, the supervisor's
 * lease, and the PostgreSQL server behind this instance's pool with its standbys. Reads only, in short
 * transactions, no row lock.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class ClusterQueries {

    @JsonbPropertyOrder({"holder", "epoch", "expiresAt", "lastRunAt", "lastRunNote"})
    public record Lease(String holder, long epoch, OffsetDateTime expiresAt, OffsetDateTime lastRunAt,
                        String lastRunNote) {
    }

    @JsonbPropertyOrder({"instanceId", "startedAt", "lastSeen", "alive", "holds"})
    public record Instance(String instanceId, OffsetDateTime startedAt, OffsetDateTime lastSeen, boolean alive,
                           long holds) {
    }

    /**
     * The PostgreSQL server this instance's connections reach now ("host:port"; with a replicated database
     * the driver picks the primary), whether it is the primary, its synchronous_standby_names, and its
     * standbys as it reports them (empty for a single server).
     */
    @JsonbPropertyOrder({"server", "primary", "version", "synchronousStandbyNames", "standbys"})
    public record DatabaseServer(String server, boolean primary, String version, String synchronousStandbyNames,
                                 List<Standby> standbys) {
    }

    /** One standby streaming from the server: its name, address, state, sync_state, and bytes not yet replayed. */
    @JsonbNillable
    public record Standby(String name, String address, String state, String syncState, Long lagBytes) {
    }

    /** An instance that has not beaten for this long is shown as gone (it beats every 5 s). */
    static final Duration ALIVE = Duration.ofSeconds(20);

    @PersistenceContext(unitName = "overseer")
    EntityManager em;
    @Inject
    Clocks clocks;

    /** The supervisor's lease row. */
    @SuppressWarnings("unchecked")
    public Optional<Lease> supervisorLease() {
        List<Object[]> rows = em.createNativeQuery("SELECT holder, epoch, expires_at, last_run_at, last_run_note"
                + " FROM job_lease WHERE name = 'supervisor'").getResultList();
        return rows.stream().findFirst().map(row -> new Lease((String) row[0], ((Number) row[1]).longValue(),
                utc(row[2]), row[3] == null ? null : utc(row[3]), (String) row[4]));
    }

    /**
     * The server behind this instance's pool and its replication, from PostgreSQL itself (the standbys'
     * details need pg_monitor, which the launcher grants; without it they show with their state unknown).
     */
    @SuppressWarnings("unchecked")
    public DatabaseServer databaseServer() {
        Object[] row = (Object[]) em.createNativeQuery("SELECT coalesce(host(inet_server_addr()) || ':'"
                + " || inet_server_port(), 'local socket'), pg_is_in_recovery(), current_setting('server_version'),"
                + " current_setting('synchronous_standby_names')").getSingleResult();
        boolean primary = !((Boolean) row[1]);
        List<Object[]> rows = primary ? em.createNativeQuery("SELECT application_name, host(client_addr), state, sync_state,"
                + " pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint FROM pg_stat_replication"
                + " ORDER BY application_name").getResultList() : List.of();
        List<Standby> standbys = rows.stream().map(r -> new Standby((String) r[0], (String) r[1], (String) r[2],
                (String) r[3], r[4] == null ? null : ((Number) r[4]).longValue())).toList();
        return new DatabaseServer((String) row[0], primary, (String) row[2], (String) row[3], standbys);
    }

    /** Every instance that beat in the last day, newest first, with how many orders each holds now. */
    @SuppressWarnings("unchecked")
    public List<Instance> instances() {
        OffsetDateTime now = clocks.now();
        List<Object[]> rows = em.createNativeQuery("SELECT i.instance_id, i.started_at, i.last_seen,"
                        + " (SELECT count(*) FROM order_state s WHERE s.locked_by = i.instance_id)"
                        + " FROM scheduler_instance i ORDER BY i.started_at DESC")
                .getResultList();
        return rows.stream().map(row -> new Instance((String) row[0], utc(row[1]), utc(row[2]),
                utc(row[2]).isAfter(now.minus(ALIVE)), ((Number) row[3]).longValue())).toList();
    }
}
