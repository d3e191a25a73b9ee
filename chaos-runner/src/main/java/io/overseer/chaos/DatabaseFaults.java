package io.overseer.chaos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overseer.launcher.LauncherOptions;
import io.overseer.launcher.Wait;
import io.overseer.launcher.lab.PatroniNode;
import io.overseer.launcher.lab.PostgresHa;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The database faults of {@code --db-ha}, on the launcher's replicated PostgreSQL ({@link PostgresHa}):
 * db-failover kills the primary host, db-kill only the primary's PostgreSQL. As with the broker pair, each
 * first waits until the cluster is settled — one primary taking writes, the other host its synchronous
 * standby, streaming — and is over only once it is settled again: Patroni promotes only a node that was
 * synchronous, so a primary killed while the standby still catches up could not fail over, and the next
 * fault must find the cluster whole.
 *
 * <p>A node counts as primary when Patroni says so and its PostgreSQL answers that it is out of recovery:
 * that, not Patroni's word alone, is when the application can write again, and what the times measure.
 */
final class DatabaseFaults {

    /** Patroni's ttl (10 s) and a few of its loops; measured by hand: writes on the standby ≈ 9 s after the kill. */
    static final Duration FAILOVER_WAIT = Duration.ofSeconds(60);
    /**
     * How long the cluster may take to be settled again: the watch's restart delay, then Patroni's start,
     * the rewind and the catch-up of the old primary, on a busy two-core machine.
     */
    static final Duration SETTLE_WAIT = Duration.ofSeconds(120);
    private static final long POLL_MS = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One db-failover, for the report: the host killed, the one that took writes after it (null if none did
     * within {@link #FAILOVER_WAIT}), and the milliseconds from the kill to those writes and to the killed
     * host being the synchronous standby again.
     */
    record Failover(String killed, String promoted, long failoverMs, long inSyncMs) {
    }

    private final ChaosStack stack;
    private final List<Failover> failovers = new CopyOnWriteArrayList<>();

    DatabaseFaults(ChaosStack stack) {
        this.stack = stack;
    }

    List<Failover> failovers() {
        return new ArrayList<>(failovers);
    }

    /**
     * db-failover: kill -9 of the primary host (Patroni and its postmaster). The host stays down until the
     * watch starts it again ({@link ChaosStack#DB_RESTART_DELAY}, beyond the lock's ttl), then rejoins as
     * the synchronous standby, rewound if it had written past the fork.
     */
    String killPrimaryHost() throws InterruptedException {
        PostgresHa db = stack.postgresHa();
        long waited = awaitSettled(db, "before the fault");
        PatroniNode old = awaitWritable(db, n -> true, System.nanoTime() + SETTLE_WAIT.toNanos())
                .orElseThrow(() -> new IllegalStateException("the primary went away before the fault"));
        int restartsBefore = db.restarts();
        long t = System.nanoTime();
        old.kill9();
        Optional<PatroniNode> promoted = awaitWritable(db, n -> n != old, t + FAILOVER_WAIT.toNanos());
        long failoverMs = millisSince(t);
        awaitSettledAfter(db, "primary " + old.name() + " was killed (" + promoted.map(n -> n.name() + " primary after "
                + failoverMs + " ms").orElse("no other primary") + ")");
        long inSyncMs = millisSince(t);
        Failover f = new Failover(old.name(), promoted.map(PatroniNode::name).orElse(null),
                promoted.isPresent() ? failoverMs : -1, inSyncMs);
        failovers.add(f);
        String note = f.promoted() == null
                ? "primary " + f.killed() + " killed, NO other primary within " + FAILOVER_WAIT.toSeconds()
                        + " s, settled again after " + inSyncMs + " ms"
                : "primary " + f.killed() + " killed, " + f.promoted() + " primary after " + failoverMs + " ms, "
                        + f.killed() + " back in sync after " + inSyncMs + " ms";
        note += " (the watch restarted " + (db.restarts() - restartsBefore) + " node(s); primary now " + primaryName(db) + ")";
        return waited > 1000 ? note + " (after waiting " + waited + " ms for the cluster to settle)" : note;
    }

    /**
     * db-kill under --db-ha: kill -9 of the primary's postmaster and backends. Its Patroni lives on and still
     * holds the leader lock, so it starts PostgreSQL again on the same host (crash recovery), no failover.
     */
    String killPrimaryPostgres() throws InterruptedException {
        PostgresHa db = stack.postgresHa();
        long waited = awaitSettled(db, "before the fault");
        PatroniNode primary = awaitWritable(db, n -> true, System.nanoTime() + SETTLE_WAIT.toNanos())
                .orElseThrow(() -> new IllegalStateException("the primary went away before the fault"));
        long pid = primary.postmasterPid();
        ProcessHandle postmaster = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalStateException(primary.name() + "'s postmaster " + pid + " is not running"));
        long t = System.nanoTime();
        kill9Tree(postmaster);
        // The old postmaster.pid stays until a new postmaster replaces it: a changed pid is a new PostgreSQL.
        Optional<PatroniNode> back = awaitWritable(db, n -> n.postmasterPid() != pid, t + SETTLE_WAIT.toNanos());
        long backMs = millisSince(t);
        awaitSettledAfter(db, "postmaster " + pid + " of " + primary.name() + " was killed");
        String note = "postmaster " + pid + " of " + primary.name() + " (primary) killed, its Patroni alive; "
                + back.map(n -> n.name() + " primary after " + backMs + " ms"
                        + (n == primary ? " (crash recovery, no failover)" : " (a FAILOVER, not a local restart)"))
                        .orElse("no primary within " + SETTLE_WAIT.toSeconds() + " s")
                + ", settled again after " + millisSince(t) + " ms";
        return waited > 1000 ? note + " (after waiting " + waited + " ms for the cluster to settle)" : note;
    }

    /**
     * Until one node is a writable primary and every other its synchronous standby, within
     * {@link #SETTLE_WAIT}; returns the milliseconds waited.
     */
    static long awaitSettled(PostgresHa db, String when) throws InterruptedException {
        long t = System.nanoTime();
        long deadline = t + SETTLE_WAIT.toNanos();
        while (!settled(db)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the replicated database was not settled " + when + " within "
                        + SETTLE_WAIT.toSeconds() + " s: " + describe(db));
            }
            Thread.sleep(POLL_MS);
        }
        return millisSince(t);
    }

    /** As {@link #awaitSettled}, after the kill: the failure says what was done (the fault did strike). */
    private static void awaitSettledAfter(PostgresHa db, String done) throws InterruptedException {
        try {
            awaitSettled(db, "after the fault");
        } catch (IllegalStateException e) {
            throw new IllegalStateException(done + ", but " + e.getMessage(), e);
        }
    }

    /**
     * The standby's {@code /sync} alone is not enough: it answers from the sync key in etcd, which a primary
     * that only restarted its PostgreSQL leaves as it was, while the standby has not reconnected yet. So the
     * primary's own view (its pg_stat_replication, through Patroni) must show the standby streaming in sync.
     */
    private static boolean settled(PostgresHa db) {
        List<PatroniNode> primaries = db.nodes().stream().filter(DatabaseFaults::writablePrimary).toList();
        if (primaries.size() != 1) {
            return false;
        }
        Wait.Answer status = Wait.httpGet(primaries.get(0).restUrl() + "/patroni");
        return status != null && db.nodes().stream().filter(n -> n != primaries.get(0))
                .allMatch(n -> n.isSynchronousStandby() && streamsInSync(status.body(), n.name()));
    }

    /**
     * Whether a primary's Patroni status ({@code GET /patroni}) lists {@code standby} (its application name,
     * Patroni's node name) as streaming and synchronous.
     */
    static boolean streamsInSync(String primaryStatus, String standby) {
        try {
            for (JsonNode r : JSON.readTree(primaryStatus).path("replication")) {
                if (standby.equals(r.path("application_name").asText()) && "streaming".equals(r.path("state").asText())
                        && "sync".equals(r.path("sync_state").asText())) {
                    return true;
                }
            }
            return false;
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** The first node {@code which} accepts that is a writable primary, polled until {@code deadlineNanos}. */
    static Optional<PatroniNode> awaitWritable(PostgresHa db, Predicate<PatroniNode> which, long deadlineNanos)
            throws InterruptedException {
        while (true) {
            Optional<PatroniNode> found = db.nodes().stream().filter(which).filter(DatabaseFaults::writablePrimary).findFirst();
            if (found.isPresent() || System.nanoTime() > deadlineNanos) {
                return found;
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** Patroni says primary, and its PostgreSQL answers out of recovery to the application's role. */
    private static boolean writablePrimary(PatroniNode n) {
        if (!n.isPrimary()) {
            return false;
        }
        String url = "jdbc:postgresql://" + n.address() + ":" + n.pgPort() + "/" + LauncherOptions.EMBEDDED_DB
                + "?connectTimeout=2&socketTimeout=5";
        try (Connection c = DriverManager.getConnection(url, LauncherOptions.EMBEDDED_DB, LauncherOptions.EMBEDDED_DB);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_is_in_recovery()")) {
            return rs.next() && !rs.getBoolean(1);
        } catch (SQLException e) {
            return false;
        }
    }

    private static String primaryName(PostgresHa db) {
        return db.nodes().stream().filter(DatabaseFaults::writablePrimary).map(PatroniNode::name).findFirst().orElse("none");
    }

    /** Each node as Patroni sees it, for the message when the cluster does not settle. */
    private static String describe(PostgresHa db) {
        return db.nodes().stream().map(n -> n.name() + " " + (!n.isAlive() ? "down" : writablePrimary(n) ? "primary"
                        : n.isPrimary() ? "primary by Patroni, not writable" : n.isSynchronousStandby() ? "synchronous standby"
                        : "running, not in sync"))
                .collect(Collectors.joining(", ")) + "; the watch restarted " + db.restarts() + " node(s) in all";
    }

    /** SIGKILL to the postmaster and its backends at once, as a crash takes them (the snapshot first: orphans are not listed). */
    private static void kill9Tree(ProcessHandle root) {
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(root);
        root.descendants().forEach(tree::add);
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
