package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.DatabaseNode;
import io.overseer.launcher.Hosts;
import io.overseer.launcher.LauncherOptions;
import io.overseer.launcher.lab.PatroniNode;
import io.overseer.launcher.lab.PostgresHa;
import io.overseer.support.Poll;
import io.overseer.support.TestStack;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The replicated PostgreSQL of ./run --db-ha ({@link PostgresHa}: two hosts under Patroni, synchronous
 * replication, the leader lock in three etcd members) loses its primary host under load: Patroni and its
 * PostgreSQL killed together with SIGKILL, as when the machine dies. The application server names both hosts
 * in its JDBC URL (targetServerType=primary); orders come over REST and from a legacy JMS client. The
 * standby is promoted once the dead primary's lock expires; the watch starts the dead host again
 * {@value #DOWN_SECONDS} s after the kill (longer than the lock's ttl, or it would take its own lock back),
 * and it rejoins as the synchronous standby, rewound.
 *
 * <p>What must hold is {@link OutageScenario}'s, the "return" being the standby's promotion: no POST over
 * 5 s (202, or 503 with Retry-After while there is no primary), processing resumes within 10 s of the
 * promotion (the pool's reconnect), every accepted order Processed, each effect once, no dead letter, the
 * server never restarted; plus every JMS order once and Processed, and the old primary back in sync. The
 * report gives the failover time (kill → promotion, as Patroni reports it) beside the pause in processing.
 */
class DatabaseFailoverIT extends OutageScenario {

    private static final Logger LOG = Logger.getLogger(DatabaseFailoverIT.class.getName());
    private static final int DOWN_SECONDS = 20;
    private static final int REST_RATE = 8;
    private static final int JMS_RATE = 2;

    private static PostgresHa cluster;
    private static AutoCloseable redirect;

    private OffsetDateTime killedAt;
    private OffsetDateTime promotedAt;

    @BeforeAll
    static void startCluster() throws Exception {
        // The cluster ./run --db-ha makes, chosen by the launcher from the same options, in the test stack's data
        // directory as ./run puts it in its own (postgres-ha/, the logs beside the stack's).
        LauncherOptions options = LauncherOptions.parse(new String[] {"--data-dir", TestStack.workDir().toString(), "--db-ha",
                "--db-port", Integer.toString(TestStack.freePorts(PostgresHa.PORTS))}, Map.of());
        cluster = (PostgresHa) DatabaseNode.of(options, TestStack.layout(), Hosts.loopback());
        try {
            cluster.start();
        } catch (Exception e) {
            cluster.stop();
            throw e;
        }
        cluster.watch(Duration.ofSeconds(DOWN_SECONDS));
        redirect = TestStack.useDatabase(cluster.jdbcUrl(), LauncherOptions.EMBEDDED_DB, LauncherOptions.EMBEDDED_DB);
    }

    /** The server first: it would log connection failures for as long as it runs without a database. */
    @AfterAll
    static void stopCluster() throws Exception {
        stopServer();
        if (redirect != null) {
            redirect.close();
        }
        if (cluster != null) {
            cluster.stop();
        }
    }

    @Override
    AppServerNode newServer(String name) {
        return SystemServers.payaraMicroOnDatabase(name, cluster.jdbcUrl(), LauncherOptions.EMBEDDED_DB,
                LauncherOptions.EMBEDDED_DB, Map.of("overseer.scheduler.complete-by", "PT10S"));
    }

    @Override
    int ratePerSecond() {
        return REST_RATE;
    }

    @Override
    SideLoad sideLoad() {
        return new JmsOrderLoad(TestStack.brokerUrl(), TestStack.BROKER_SUBMITTER.name(),
                TestStack.BROKER_SUBMITTER.password(), JMS_RATE);
    }

    @Override
    String extraReport() {
        if (promotedAt == null) {
            return "; no standby was promoted";
        }
        return "; standby promoted " + Duration.between(killedAt, promotedAt).toMillis() + " ms after the kill"
                + "; longest pause between Processed orders from the kill on "
                + longestProcessingGap(killedAt, promotedAt.plusSeconds(10)).describe(killedAt)
                + "; database nodes restarted by the watch " + cluster.restarts();
    }

    @Test
    void primaryHostKilledUnderLoadTheStandbyTakesOverAndNothingIsLostOrDoubled() throws Exception {
        PatroniNode before = cluster.primary().orElseThrow();
        runThrough("db-failover", "Primary database host SIGKILL (Patroni and PostgreSQL), the synchronous standby"
                + " promoted, the dead host back after " + DOWN_SECONDS + " s", () -> {
                    long pid = before.postmasterPid();
                    killedAt = databaseNow();
                    before.kill9();
                    LOG.info(before.label() + " (postmaster " + pid + ") killed with SIGKILL");
                    PatroniNode promoted = Poll.until("a standby to be promoted", Duration.ofSeconds(60),
                            Duration.ofMillis(100), () -> cluster.primary().orElse(null), p -> p != null);
                    // Patroni names the new primary as it promotes; the driver finds it once it takes writes
                    // (and after its host-status cache of hostRecheckSeconds): the same moment the pool can.
                    promotedAt = Poll.until("the promoted primary to be reachable through the JDBC URL",
                            Duration.ofSeconds(30), Duration.ofMillis(100), DatabaseFailoverIT::nowOrNull, t -> t != null);
                    LOG.info(promoted.label() + " promoted " + Duration.between(killedAt, promotedAt).toMillis()
                            + " ms after the kill");
                });
        PatroniNode after = cluster.primary().orElseThrow();
        assertNotEquals(before.name(), after.name(), "the standby took over");
        Poll.until(before.label() + " back as the synchronous standby", Duration.ofSeconds(120),
                before::isSynchronousStandby);
        assertEquals(1, cluster.restarts(), "the watch started the dead host again, and nothing else");
    }

    /** The database's clock through the URL that names every host, or null while no primary answers. */
    private static OffsetDateTime nowOrNull() {
        try {
            return databaseNow();
        } catch (java.sql.SQLException e) {
            return null;
        }
    }
}
