package io.overseer.launcher.lab;

import io.overseer.launcher.AppDatabase;
import io.overseer.launcher.Host;
import io.overseer.launcher.Hosts;
import io.overseer.launcher.LauncherOptions;
import io.overseer.launcher.LogTail;
import io.overseer.launcher.Node;
import io.overseer.launcher.ReplicatedDatabase;
import io.overseer.launcher.StackLayout;
import io.overseer.launcher.SummaryRow;
import io.overseer.launcher.Wait;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicated PostgreSQL of {@code ./run --db-ha}: two PostgreSQL hosts under Patroni ({@link PatroniNode})
 * with synchronous replication, and three etcd members ({@link EtcdMember}) holding the leader lock — all
 * from Debian's packages (decision 0020, {@link DebianPrograms}). Patroni fails over by itself: when the primary dies, freezes or is
 * cut from the etcd majority, its lock expires and the synchronous standby is promoted; the old primary, when
 * it comes back, rewinds and follows. The application names both hosts in its JDBC URL with
 * {@code targetServerType=primary} ({@link #jdbcUrl}), so a new connection reaches whichever one is primary.
 *
 * <p>The launcher plays the machines' service manager ({@link ServiceManager}): its watch starts again a node that died (a host
 * that reboots), after the watch's delay ({@link #watch(Duration)}). Ports, from {@code basePort}: PostgreSQL on base and base+1,
 * Patroni's REST API on base+2 and base+3, etcd clients on base+4, +6, +8 and peers one above each.
 */
public final class PostgresHa implements ReplicatedDatabase {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresHa.class);

    static final int ETCD_MEMBERS = 3;
    /** Long enough for a fresh cluster's initdb and the standby's first copy on a busy machine. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration POLL = Duration.ofMillis(500);
    public static final Duration DEFAULT_RESTART_DELAY = Duration.ofSeconds(3);

    private final Path dir;
    private final int basePort;
    private final String appUser;
    private final String appPassword;
    private final String appDatabase;
    private final HostUser user;
    private final List<EtcdMember> etcd = new ArrayList<>();
    private final List<PatroniNode> nodes = new ArrayList<>();
    private final StackLayout layout;
    private final Path logDir;
    private final String clientNet;
    private final ServiceManager serviceManager;

    /**
     * Where the cluster runs: each PostgreSQL host, each etcd member (three), and the network its clients
     * connect from (pg_hba). {@link #loopback()} for ./run; hosts of their own for the chaos runner and tests.
     */
    public record Placement(List<Host> databases, List<Host> etcd, String clientNet) {
        public Placement {
            if (databases.size() != NODES || etcd.size() != ETCD_MEMBERS) {
                throw new IllegalArgumentException("the cluster has " + NODES + " database hosts and " + ETCD_MEMBERS
                        + " etcd members, not " + databases.size() + " and " + etcd.size());
            }
            databases = List.copyOf(databases);
            etcd = List.copyOf(etcd);
        }

        /** Everything on this machine's loopback, as ./run --db-ha runs it. */
        public static Placement loopback() {
            return on(Hosts.loopback());
        }

        /**
         * Each database host (db1, db2) with an etcd member beside it, and the third member on a witness host of its
         * own: a database host cut off takes its member along, and the other two still make a majority. On the
         * loopback all of them are this machine's.
         */
        public static Placement on(Hosts hosts) {
            Host db1 = hosts.place("db1");
            Host db2 = hosts.place("db2");
            return new Placement(List.of(db1, db2), List.of(db1, db2, hosts.place("witness")), hosts.clientNet());
        }
    }

    /** Application role, password and database overseer/overseer/overseer, as the embedded database's. */
    public PostgresHa(StackLayout layout, Path dir, int basePort, Path logDir) {
        this(layout, dir, basePort, logDir, Placement.loopback());
    }

    public PostgresHa(StackLayout layout, Path dir, int basePort, Path logDir, Placement placement) {
        this.layout = layout;
        this.dir = dir.toAbsolutePath().normalize();
        this.basePort = basePort;
        this.logDir = logDir.toAbsolutePath().normalize();
        this.appUser = LauncherOptions.EMBEDDED_DB;
        this.appPassword = LauncherOptions.EMBEDDED_DB;
        this.appDatabase = LauncherOptions.EMBEDDED_DB;
        this.user = HostUser.forPostgres();
        this.clientNet = placement.clientNet();
        StringBuilder initial = new StringBuilder();
        for (int i = 0; i < ETCD_MEMBERS; i++) {
            initial.append(i == 0 ? "" : ",").append("etcd").append(i + 1).append("=http://")
                    .append(placement.etcd().get(i).address()).append(':').append(basePort + 5 + 2 * i);
        }
        for (int i = 0; i < ETCD_MEMBERS; i++) {
            etcd.add(new EtcdMember("etcd" + (i + 1), placement.etcd().get(i), basePort + 4 + 2 * i, basePort + 5 + 2 * i,
                    this.dir.resolve("etcd" + (i + 1)), this.logDir.resolve("etcd" + (i + 1) + ".log"), initial.toString()));
        }
        for (int i = 0; i < NODES; i++) {
            nodes.add(new PatroniNode("pg" + (i + 1), placement.databases().get(i), basePort + i, basePort + 2 + i, this.dir.resolve("pg" + (i + 1)),
                    this.logDir.resolve("patroni-pg" + (i + 1) + ".log"), layout.patroniTemplate(), this::clusterValues, user));
        }
        List<Node> all = new ArrayList<>(etcd);
        all.addAll(nodes);
        this.serviceManager = new ServiceManager(all, DEFAULT_RESTART_DELAY);
    }

    @Override
    public String name() {
        return "postgres-ha";
    }

    /**
     * etcd first (all members, then healthy together), then both Patroni nodes at once: a fresh cluster's
     * first node to take the initialize key runs initdb and the other copies from it; an existing one
     * resumes with whoever gets the lock. Ready once there is a primary with the application's database and
     * a synchronous standby.
     */
    @Override
    public void start() throws Exception {
        DebianPrograms.installIfMissing(layout);
        Files.createDirectories(dir);
        user.letThrough(dir.getParent());
        user.letThrough(dir);
        long t0 = System.nanoTime();
        for (EtcdMember m : etcd) {
            m.start();
        }
        for (EtcdMember m : etcd) {
            m.awaitHealthy(Duration.ofSeconds(60));
        }
        for (PatroniNode n : nodes) {
            n.start();
        }
        PatroniNode primary = awaitPrimary(START_TIMEOUT);
        try (Connection c = superuser(primary)) {
            AppDatabase.ensure(c, appUser, appPassword, appDatabase);
        }
        for (PatroniNode n : nodes) {
            if (n != primary) {
                n.awaitSynchronous(START_TIMEOUT);
            }
        }
        LOG.info("Replicated PostgreSQL ready in {} ms: primary {} ({}:{}), synchronous standby{} {}",
                (System.nanoTime() - t0) / 1_000_000, primary.name(), primary.address(), primary.pgPort(),
                NODES > 2 ? "s" : "", nodes.stream().filter(n -> n != primary).map(PatroniNode::name)
                        .collect(Collectors.joining(", ")));
    }

    /** The template's cluster-wide placeholders, the passwords made at the first start among them. */
    private Map<String, String> clusterValues() throws IOException {
        Properties secrets = ClusterSecrets.in(dir);
        Map<String, String> v = new HashMap<>();
        v.put("ETCD_HOSTS", etcd.stream().map(EtcdMember::clientAddress).collect(Collectors.joining(",")));
        v.put("BIN_DIR", DebianPrograms.binDir().toString());
        v.put("CLIENT_NET", clientNet);
        for (String k : ClusterSecrets.KEYS) {
            v.put(k, secrets.getProperty(k));
        }
        return v;
    }

    private Connection superuser(PatroniNode node) throws IOException, SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("password", ClusterSecrets.in(dir).getProperty("SUPERUSER_PASSWORD"));
        return DriverManager.getConnection("jdbc:postgresql://" + node.address() + ":" + node.pgPort() + "/postgres", p);
    }

    /** Until one node holds the leader lock as primary. */
    public PatroniNode awaitPrimary(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<PatroniNode> primary = primary();
            if (primary.isPresent()) {
                return primary.get();
            }
            if (nodes.stream().noneMatch(PatroniNode::isAlive)) {
                throw new IllegalStateException("no Patroni node is running. Last log lines:\n"
                        + nodes.stream().map(n -> n.name() + ":\n" + LogTail.lastLines(n.logFile(), 30))
                                .collect(Collectors.joining("\n")));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no PostgreSQL primary after " + timeout.toSeconds() + " s. Last log lines:\n"
                        + nodes.stream().map(n -> n.name() + ":\n" + LogTail.lastLines(n.logFile(), 30))
                                .collect(Collectors.joining("\n")));
            }
            Wait.sleep(POLL.toMillis());
        }
    }

    /** The node that is primary now, as its Patroni says. */
    public Optional<PatroniNode> primary() {
        return nodes.stream().filter(PatroniNode::isPrimary).findFirst();
    }

    /** Restarts nodes that die (after {@link #DEFAULT_RESTART_DELAY}), as a host's service manager would. */
    @Override
    public void watch() {
        watch(DEFAULT_RESTART_DELAY);
    }

    /**
     * As {@link #watch()}, a dead node started again once it has been dead for {@code delay}. Called again
     * while the watch runs, it changes the delay of the running watch: the chaos runner leaves a killed
     * primary down longer than Patroni's ttl, so that its lock expires and the standby takes over.
     */
    public void watch(Duration delay) {
        serviceManager.watch(delay);
    }

    private void stopWatching() {
        serviceManager.stop();
    }

    /**
     * The standbys first, then the primary (stopped first, the primary would hand its lock to a standby on
     * the way out: a needless failover), then etcd.
     */
    @Override
    public void stop() {
        stopWatching();
        Optional<PatroniNode> primary = nodes.stream().filter(PatroniNode::isAlive).filter(PatroniNode::isPrimary).findFirst();
        nodes.stream().filter(n -> primary.map(p -> p != n).orElse(true)).forEach(PatroniNode::stop);
        primary.ifPresent(PatroniNode::stop);
        etcd.forEach(EtcdMember::stop);
    }

    /** Every node at once: the whole site lost. */
    @Override
    public void kill9() {
        stopWatching();
        nodes.forEach(PatroniNode::kill9);
        etcd.forEach(EtcdMember::kill9);
    }

    /** Whether any database host runs. */
    @Override
    public boolean isAlive() {
        return nodes.stream().anyMatch(PatroniNode::isAlive);
    }

    /** The primary's postmaster, or -1 when there is none now. */
    @Override
    public long pid() {
        return primary().map(PatroniNode::postmasterPid).orElse(-1L);
    }

    public List<PatroniNode> nodes() {
        return List.copyOf(nodes);
    }

    public List<EtcdMember> etcdMembers() {
        return List.copyOf(etcd);
    }

    /** Nodes the watch started again. */
    public int restarts() {
        return serviceManager.restarts();
    }

    /** Every host in the URL, the driver taking the primary ({@link ReplicatedDatabase#jdbcUrl(List, String)}). */
    @Override
    public String jdbcUrl() {
        return ReplicatedDatabase.jdbcUrl(nodes.stream().map(n -> n.address() + ":" + n.pgPort()).toList(), appDatabase);
    }

    /** Each database host with its role now, Patroni's API, etcd, and the URL that follows the primary. */
    @Override
    public List<SummaryRow> summaryRows() {
        String primary = primary().map(PatroniNode::name).orElse("");
        List<SummaryRow> rows = new ArrayList<>();
        for (PatroniNode n : nodes) {
            rows.add(new SummaryRow("PostgreSQL " + n.name(), n.address() + ":" + n.pgPort() + "   " + (n.name().equals(primary)
                    ? "primary" : "synchronous standby") + "   Patroni " + n.restUrl() + "/cluster"));
        }
        rows.add(new SummaryRow("etcd", etcd.stream().map(EtcdMember::clientUrl).collect(Collectors.joining(" "))));
        rows.add(new SummaryRow("JDBC", jdbcUrl()));
        rows.add(new SummaryRow("", "(user overseer / password overseer; the driver picks the primary)"));
        return rows;
    }

    @Override
    public String restartNote() {
        return "Patroni fails the database over by itself; a dead node is started again and follows (docs/database-ha.md).";
    }

    public Path dir() {
        return dir;
    }
}
