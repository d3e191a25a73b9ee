package io.overseer.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replicated (shared-nothing) Artemis pair, ./run --broker-ha: a primary and a backup, each with its own
 * instance, journal and log, both from server-config's broker.xml plus its replication settings. Started
 * primary first, stopped passive node first, and watched: a node that dies is started again, but only
 * when that cannot activate a stale journal (the traps of docs/broker-ha.md):
 * <ul>
 * <li>one node dead while the other is active: restart it; it syncs from the active one (a restarted
 *     primary then takes over again: check-for-active-server on the primary, allow-failback on the backup);
 * <li>the primary dead and the backup not taking over within {@link #TAKEOVER_GRACE}: the primary's journal
 *     is the newest, so restart it, then the backup, which refused to activate and must resync;
 * <li>both dead: restart them primary first if the primary was the last active one; if the backup was,
 *     refuse (its journal is the newest and a backup cannot activate by itself) and say what to do; the
 *     same when the active backup dies while the restarted primary is still syncing from it.
 * </ul>
 * Which node was active last is kept in {@link #STATE_FILE} next to the instances, so that a later launcher
 * refuses too instead of starting the primary on an old journal.
 *
 * <p>Long because the restart rules above depend on each other and on the state file; they are kept, and tested,
 * together.
 */
public final class BrokerPair implements BrokerNodes {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerPair.class);
    static final String STATE_FILE = "broker-pair.last-active";
    /** kill -9 of the primary → backup active in 0.2-1.6 s (docs/broker-ha.md); far more than that here. */
    static final Duration TAKEOVER_GRACE = Duration.ofSeconds(20);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** As the application servers' first backoff ({@link AppServerWatchdog}). */
    static final Duration DEFAULT_RESTART_DELAY = Duration.ofSeconds(2);

    private final BrokerNode primary;
    private final BrokerNode backup;
    private final Path stateFile;
    private volatile BrokerHa.Role lastActive;
    // A restart under way ends within its 90 s wait.
    private final NodeWatch watch = new NodeWatch("overseer-broker-pair", DEFAULT_RESTART_DELAY, Duration.ofSeconds(100));
    private volatile int restarts;
    private volatile String refusal;
    private long deadSince = -1;
    private long lastSplitBrainWarning;

    public BrokerPair(StackLayout layout, Path primaryDir, Path backupDir, int port, int backupPort, int consolePort,
                      int backupConsolePort, Path logDir, List<BrokerUser> users) {
        this(layout, primaryDir, backupDir, port, backupPort, consolePort, backupConsolePort, logDir, users,
                Host.LOOPBACK, Host.LOOPBACK);
    }

    /** The two nodes on hosts of their own (the lab's {@code HostNetwork}), each reaching the other at its address. */
    public BrokerPair(StackLayout layout, Path primaryDir, Path backupDir, int port, int backupPort, int consolePort,
                      int backupConsolePort, Path logDir, List<BrokerUser> users, Host primaryHost, Host backupHost) {
        BrokerUser cluster = BrokerUser.generated("overseer-cluster");
        this.primary = new BrokerNode(layout, primaryDir, port, consolePort, logDir.resolve("artemis.log"), users,
                new BrokerHa(BrokerHa.Role.PRIMARY, backupHost.address(), backupPort, cluster.name(), cluster.password()));
        this.backup = new BrokerNode(layout, backupDir, backupPort, backupConsolePort,
                logDir.resolve("artemis-backup.log"), users,
                new BrokerHa(BrokerHa.Role.BACKUP, primaryHost.address(), port, cluster.name(), cluster.password()));
        primary.placeOn(primaryHost);
        backup.placeOn(backupHost);
        this.stateFile = primaryDir.toAbsolutePath().getParent().resolve(STATE_FILE);
    }

    @Override
    public String name() {
        return "artemis-pair";
    }

    /** Primary first (active on its own journal), then the backup, ready once in sync with it. */
    @Override
    public void start() throws IOException {
        String recorded = Files.exists(stateFile) ? Files.readString(stateFile).trim() : "";
        if (recorded.equals(BrokerHa.Role.BACKUP.label())) {
            throw new IllegalStateException(backupHoldsTheNewestJournal("the pair was stopped while the backup"
                    + " was the active node (" + stateFile + ")"));
        }
        primary.start();
        active(BrokerHa.Role.PRIMARY);
        backup.start();
    }

    /** Starts restarting dead nodes (after start(), as the Stack does for the application servers). */
    @Override
    public void watch() {
        watch(DEFAULT_RESTART_DELAY);
    }

    /** Restarts a dead node once it has been dead for {@code delay} (a test keeps the backup alone longer). */
    public void watch(Duration delay) {
        watch.start(delay, this::loop);
    }

    /** The passive node first, so the active one's journal stays the newest, and is recorded as such. */
    @Override
    public void stop() {
        stopWatching();
        boolean backupActive = backup.acceptsClients() && !primary.acceptsClients();
        BrokerNode first = backupActive ? primary : backup;
        BrokerNode second = backupActive ? backup : primary;
        first.stop();
        if (second.isAlive()) {
            active(second.ha().role());
        }
        second.stop();
    }

    private void stopWatching() {
        watch.stop();
    }

    private void loop() {
        Duration backoff = Duration.ofSeconds(2);
        while (watch.running()) {
            try {
                observe();
                if (!primary.isAlive() || !backup.isAlive()) {
                    recover();
                    backoff = Duration.ofSeconds(2);
                } else {
                    deadSince = -1;
                }
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | IOException e) {
                if (!watch.running()) {
                    return;
                }
                LOG.error("Restarting a broker node failed: {}; next try in {} s", e.getMessage(), backoff.toSeconds());
                try {
                    Thread.sleep(backoff.toMillis());
                } catch (InterruptedException ie) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }

    /** Notes which node serves; two at once is a split brain, which a single pair cannot prevent (docs). */
    private void observe() {
        boolean p = primary.acceptsClients();
        boolean b = backup.acceptsClients();
        if (p && b) {
            if (System.nanoTime() - lastSplitBrainWarning > Duration.ofSeconds(30).toNanos()) {
                lastSplitBrainWarning = System.nanoTime();
                LOG.error("Both broker nodes are active (split brain): clients may send to either and the two"
                        + " journals diverge. See docs/broker-ha.md, 'Split brain'.");
            }
        } else if (p) {
            active(BrokerHa.Role.PRIMARY);
        } else if (b) {
            active(BrokerHa.Role.BACKUP);
        }
    }

    private void recover() throws IOException {
        boolean p = primary.isAlive();
        boolean b = backup.isAlive();
        long now = System.nanoTime();
        if (deadSince < 0) {
            deadSince = now;
        }
        long deadFor = now - deadSince;
        if (!p && !b) {
            if (lastActive == BrokerHa.Role.BACKUP) {
                refuse(backupHoldsTheNewestJournal("both nodes died and the backup was the last active one"));
            } else if (deadFor >= watch.delay().toNanos()) {
                LOG.warn("Both broker nodes died; the primary was the last active one: restarting it, then the backup");
                restart(primary);
                restart(backup);
            }
            return;
        }
        if (!b) {
            if (lastActive == BrokerHa.Role.BACKUP && !primary.acceptsClients()) {
                // The primary was syncing from it: restarted as a backup it would wait for a primary, and the
                // primary, finding nobody active, could activate on the little it had received.
                refuse(backupHoldsTheNewestJournal("the backup died while it was the active node and the"
                        + " primary was still syncing from it"));
            } else if (deadFor >= watch.delay().toNanos()) {
                LOG.warn("{} died; restarting it (it resyncs from the primary)", backup.label());
                restart(backup);
            }
            return;
        }
        // The primary is dead and the backup alive.
        if (backup.acceptsClients()) {
            if (deadFor >= watch.delay().toNanos()) {
                LOG.warn("{} died and the backup took over; restarting the primary (it resyncs from the backup,"
                        + " which then fails back to it)", primary.label());
                restart(primary);
            }
            return;
        }
        if (deadFor < TAKEOVER_GRACE.toNanos()) {
            return; // the backup may be taking over right now (within a second or two of the kill)
        }
        if (lastActive == BrokerHa.Role.BACKUP) {
            refuse(backupHoldsTheNewestJournal("the primary is dead and the backup, the last active node, is passive"));
            return;
        }
        LOG.warn("{} died and the backup did not take over within {} s (it was not in sync): restarting the"
                + " primary on its journal, the newest, then the backup so that it resyncs", primary.label(),
                TAKEOVER_GRACE.toSeconds());
        restart(primary);
        backup.stop();
        restart(backup);
    }

    private void restart(BrokerNode node) throws IOException {
        if (!watch.running()) {
            return;
        }
        node.kill9(); // a half-dead process (e.g. a backup that refused to activate) must not hold the journal
        node.restart();
        deadSince = -1;
        restarts++;
        if (node.ha().role() == BrokerHa.Role.PRIMARY) {
            active(BrokerHa.Role.PRIMARY);
        }
        LOG.info("{} restarted (restart #{} of the pair)", node.label(), restarts);
    }

    /** A path the launcher does not take by itself: said loudly, once, and the watch stops. */
    private void refuse(String message) {
        refusal = message;
        watch.giveUp();
        LOG.error(message);
    }

    private static String backupHoldsTheNewestJournal(String why) {
        return "Not restarting the broker pair: " + why + ". Its journal is the newest, and the primary would"
                + " activate on an older one (messages lost or consumed twice). Copy the backup's data directory"
                + " over the primary's and delete " + STATE_FILE + " (docs/broker-ha.md, 'Restart order').";
    }

    private void active(BrokerHa.Role role) {
        if (role == lastActive) {
            return;
        }
        lastActive = role;
        try {
            Files.writeString(stateFile, role.label() + System.lineSeparator());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the active broker node in " + stateFile, e);
        }
        LOG.info("Active broker node: {}", role.label().toUpperCase(Locale.ROOT));
    }

    /** Kills both nodes (a test's double failure). */
    @Override
    public void kill9() {
        stopWatching();
        primary.kill9();
        backup.kill9();
    }

    @Override
    public boolean isAlive() {
        return primary.isAlive() || backup.isAlive();
    }

    /** The primary's pid, or the backup's when the primary is not running. */
    @Override
    public long pid() {
        return primary.isAlive() ? primary.pid() : backup.pid();
    }

    public BrokerNode primary() {
        return primary;
    }

    public BrokerNode backup() {
        return backup;
    }

    /** The node seen active last (null before start). */
    public BrokerHa.Role lastActive() {
        return lastActive;
    }

    /** Nodes restarted by the watch. */
    public int restarts() {
        return restarts;
    }

    /** Why the watch gave up, or null. */
    public String refusal() {
        return refusal;
    }

    public BrokerWiring wiring() {
        return new BrokerWiring(List.of(new BrokerWiring.Endpoint(primary.host().address(), primary.port()),
                new BrokerWiring.Endpoint(backup.host().address(), backup.port())));
    }

    @Override
    public String clientHost() {
        return primary.host().address();
    }

    /** The servers' adapter names the backup too, and follows a failover to it. */
    @Override
    public AppServerConfig wire(AppServerConfig config) {
        return config.withBrokerBackup(backup.host().address(), backup.port());
    }

    /** Both nodes, and the one URL legacy clients need to follow a failover (docs/broker-ha.md). */
    @Override
    public List<SummaryRow> summaryRows() {
        return List.of(new SummaryRow("Broker primary", "tcp://127.0.0.1:" + primary.port() + "   console "
                        + primary.consoleUrl() + "   (login demo/demo)"),
                new SummaryRow("Broker backup", "tcp://127.0.0.1:" + backup.port() + "   console "
                        + backup.consoleUrl() + "   (replica; serves after a failover)"),
                new SummaryRow("Broker client URL", wiring().clientUrl()));
    }

    @Override
    public String headline() {
        return "a replicated broker pair";
    }

    @Override
    public String restartNote() {
        return "A dead broker node is restarted, primary first, never onto a stale journal (docs/broker-ha.md).";
    }
}
