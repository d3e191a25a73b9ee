package io.overseer.platform;

import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Each instance beats its row in scheduler_instance every five seconds, so that operators see which
 * instances are alive and what each holds. Only for display: nothing decides anything on these rows
 * (claims and leases are fenced by their own rows). Rows unseen for a day are dropped.
 */
@Singleton
@DependsOn("SchemaMigration") // its timer must not run before the schema exists (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class InstanceBeat {

    private static final Logger LOG = Logger.getLogger(InstanceBeat.class.getName());

    @EJB
    InstanceRows rows;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;

    private volatile OffsetDateTime startedAt;

    @Schedule(hour = "*", minute = "*", second = "*/5", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void beat() {
        OffsetDateTime now = clocks.now();
        if (startedAt == null) {
            startedAt = now;
        }
        try {
            rows.beat(instance.id(), startedAt, now);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Instance beat not written (the database is unreachable?); the next one tries again", e);
        }
    }

    /** A clean stop removes the row at once; a crash leaves it to show as gone. */
    @PreDestroy
    void leave() {
        try {
            rows.leave(instance.id());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Instance row not removed at shutdown", e);
        }
    }
}
