package io.overseer.health;

import io.overseer.health.probes.HealthChecks;
import io.overseer.messaging.Destinations;
import io.overseer.platform.Database;
import io.overseer.platform.DatabaseReachability;
import io.overseer.platform.ShutdownGate;
import jakarta.annotation.Resource;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.QueueBrowser;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * Ready only when the application serves and PostgreSQL and the broker answer a round trip: an instance
 * that can reach neither would accept orders it cannot store or dispatch. Each round trip is bounded
 * ({@link BoundedProbe}): a hung database or broker makes the probe answer DOWN, never hang.
 *
 * <p>These are plain beans: {@link WebModuleLifecycle} registers them with the health-probes library,
 * whose probes are what the server's MicroProfile Health calls (on WildFly it would find no check in
 * this module).
 */
public final class Readiness {

    private Readiness() {
        // holder of the checks; each check is its own bean
    }

    /**
     * DOWN until the web module has started ({@link WebModuleLifecycle}) and again once this instance
     * shuts down ({@link ShutdownGate}), so that a load balancer sends requests only to an instance that
     * takes them. Until the web module starts, the probe of this name answers DOWN by itself; afterwards
     * this check says whether it still serves. (Before the probes exist at all, Payara answers UP with no
     * check: docs/health.md.)
     */
    @ApplicationScoped
    public static class ApplicationCheck implements HealthCheck {
        @Inject
        ShutdownGate gate;
        private volatile boolean serving;

        public void serving(boolean serving) {
            this.serving = serving;
        }

        @Override
        public HealthCheckResponse call() {
            if (!serving) {
                return HealthCheckResponse.named(HealthChecks.APPLICATION).down().withData("state", "starting").build();
            }
            if (!gate.isOpen()) {
                return HealthCheckResponse.named(HealthChecks.APPLICATION).down().withData("state", "shutting down").build();
            }
            return HealthCheckResponse.up(HealthChecks.APPLICATION);
        }
    }

    /**
     * The round trip reads the session's {@code idle_in_transaction_session_timeout}, which the server's
     * pool sets on every new connection (server-config): shown as {@code idleTransactionTimeout}, so an
     * operator sees whether a frozen instance's row locks are bounded ("0" means they are not). It also
     * says which server answered ({@code server}, host:port) and that it takes writes: with a replicated
     * database the driver picks the primary, and a connection still on a node that has since been demoted
     * answers {@code role: standby}, DOWN, since nothing can be stored through it.
     *
     * <p>What it finds, this instance's consumers follow ({@link DatabaseReachability}): an instance not ready
     * for the database takes no queued work either, and hands it back to the others at once instead of holding
     * it while its pooled connections wait out their socket timeout (10 s with the replicated database's URL).
     */
    @ApplicationScoped
    public static class DatabaseCheck implements HealthCheck {
        static final String IDLE_TRANSACTION_TIMEOUT = "idleTransactionTimeout";
        static final String SERVER = "server";
        static final String ROLE = "role";
        @Resource(name = Database.DATA_SOURCE)
        DataSource dataSource;
        @Inject
        DatabaseReachability reachability;
        private final BoundedProbe probe = new BoundedProbe(HealthChecks.DATABASE);
        private volatile String idleTransactionTimeout = "unknown";
        private volatile String server = "unknown";
        private volatile boolean standby;

        @PreDestroy
        void close() {
            probe.close();
        }

        @Override
        public HealthCheckResponse call() {
            HealthCheckResponse answer = probe.run(() -> {
                try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                     ResultSet row = statement.executeQuery("SELECT current_setting('idle_in_transaction_session_timeout'),"
                             + " coalesce(host(inet_server_addr()) || ':' || inet_server_port(), 'local socket'),"
                             + " pg_is_in_recovery()")) {
                    if (row.next()) {
                        idleTransactionTimeout = row.getString(1);
                        server = row.getString(2);
                        standby = row.getBoolean(3);
                    }
                }
                return null;
            });
            if (answer.getStatus() != HealthCheckResponse.Status.UP || standby) {
                reachability.lost();
            } else {
                reachability.reached();
            }
            if (answer.getStatus() != HealthCheckResponse.Status.UP) {
                return answer;
            }
            return HealthCheckResponse.named(HealthChecks.DATABASE).status(!standby)
                    .withData(SERVER, server).withData(ROLE, standby ? "standby" : "primary")
                    .withData(IDLE_TRANSACTION_TIMEOUT, idleTransactionTimeout).build();
        }
    }

    @ApplicationScoped
    public static class BrokerCheck implements HealthCheck {
        @Resource(name = Destinations.CONNECTION_FACTORY)
        ConnectionFactory connectionFactory;
        private final BoundedProbe probe = new BoundedProbe(HealthChecks.BROKER);

        @PreDestroy
        void close() {
            probe.close();
        }

        @Override
        public HealthCheckResponse call() {
            return probe.run(() -> {
                try (JMSContext context = connectionFactory.createContext();
                     QueueBrowser browser = context.createBrowser(context.createQueue(Destinations.ORDERS))) {
                    browser.getEnumeration().hasMoreElements();
                }
                return null;
            });
        }
    }
}
