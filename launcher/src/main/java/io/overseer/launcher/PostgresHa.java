package io.overseer.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
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
 * from Debian's packages (decision 0020). Patroni fails over by itself: when the primary dies, freezes or is
 * cut from the etcd majority, its lock expires and the synchronous standby is promoted; the old primary, when
 * it comes back, rewinds and follows. The application names both hosts in its JDBC URL with
 * {@code targetServerType=primary} ({@link #jdbcUrl}), so a new connection reaches whichever one is primary.
 *
 * <p>The launcher plays the machines' service manager: its watch starts again a node that died (a host
 * that reboots), after the watch's delay ({@link #watch(Duration)}). Ports, from {@code basePort}: PostgreSQL on base and base+1,
 * Patroni's REST API on base+2 and base+3, etcd clients on base+4, +6, +8 and peers one above each.
 */
public final class PostgresHa implements Node {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresHa.class);

    static final Path PATRONI = Path.of("/usr/bin/patroni");
    static final Path ETCD = Path.of("/usr/bin/etcd");
    static final Path POSTGRESQL_VERSIONS = Path.of("/usr/lib/postgresql");
    /** Debian's packages that hold the programs above, for the message when one is missing. */
    static final String PACKAGES = "patroni etcd-server postgresql-15";
    public static final int PORTS = 10;
    public static final int NODES = 2;
    static final int ETCD_MEMBERS = 3;
    static final String SECRETS = "secrets.properties";
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
    private final NodeWatch watch = new NodeWatch("overseer-postgres-ha", DEFAULT_RESTART_DELAY, Duration.ofSeconds(60));
    private volatile int restarts;
    private final Map<Node, Long> deadSince = new HashMap<>();

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
            return new Placement(java.util.Collections.nCopies(NODES, Host.LOOPBACK),
                    java.util.Collections.nCopies(ETCD_MEMBERS, Host.LOOPBACK), "127.0.0.1/32");
        }

        /**
         * Each database host with an etcd member beside it, and the third member on a witness host of its own:
         * a database host cut off takes its member along, and the other two still make a majority.
         */
        public static Placement onHosts(Host db1, Host db2, Host witness, String clientNet) {
            return new Placement(List.of(db1, db2), List.of(db1, db2, witness), clientNet);
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
        installIfMissing(layout);
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
        Properties secrets = secrets();
        Map<String, String> v = new HashMap<>();
        v.put("ETCD_HOSTS", etcd.stream().map(EtcdMember::clientAddress).collect(Collectors.joining(",")));
        v.put("BIN_DIR", binDir().toString());
        v.put("CLIENT_NET", clientNet);
        for (String k : List.of("SUPERUSER_PASSWORD", "REPLICATION_PASSWORD", "REWIND_PASSWORD")) {
            v.put(k, secrets.getProperty(k));
        }
        return v;
    }

    /**
     * The cluster's own passwords (superuser, replication, rewind), made once: initdb and the first
     * replication store them, so a later start must use the same ones. Owner only.
     */
    private Properties secrets() throws IOException {
        Path file = dir.resolve(SECRETS);
        Properties p = new Properties();
        if (Files.exists(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            }
            return p;
        }
        SecureRandom random = new SecureRandom();
        for (String k : List.of("SUPERUSER_PASSWORD", "REPLICATION_PASSWORD", "REWIND_PASSWORD")) {
            byte[] b = new byte[18];
            random.nextBytes(b);
            p.setProperty(k, Base64.getUrlEncoder().withoutPadding().encodeToString(b));
        }
        OwnerOnly.write(file, "");
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, "made by the launcher at the cluster's first start; initdb stored them");
        }
        return p;
    }

    /** The newest PostgreSQL under /usr/lib/postgresql that Patroni 3.0 can run (up to 15). */
    static Path binDir() {
        for (String version : List.of("15", "14", "13")) {
            Path bin = POSTGRESQL_VERSIONS.resolve(version).resolve("bin");
            if (Files.isExecutable(bin.resolve("postgres"))) {
                return bin;
            }
        }
        return POSTGRESQL_VERSIONS.resolve("15/bin");
    }

    /**
     * Installs Debian's packages when a program is missing, as CI does for the browser: server-config's
     * install-packages, which as root runs apt-get (starting no service of theirs) and otherwise says what
     * to run. Then fails loudly if anything is still missing.
     */
    static void installIfMissing(StackLayout layout) throws IOException, InterruptedException {
        try {
            requirePrograms();
            return;
        } catch (IllegalStateException missing) {
            LOG.warn("{}; installing them with {}", missing.getMessage(), layout.postgresHaInstaller());
        }
        Process p = new ProcessBuilder("bash", layout.postgresHaInstaller().toString()).inheritIO().start();
        int exit = p.waitFor();
        if (exit != 0) {
            LOG.error("{} ended with exit code {}", layout.postgresHaInstaller(), exit);
        }
        requirePrograms();
    }

    /** Fails loudly, with the command that installs them, when a program the cluster needs is missing. */
    static void requirePrograms() {
        List<Path> missing = new ArrayList<>();
        for (Path p : List.of(PATRONI, ETCD, binDir().resolve("postgres"), binDir().resolve("pg_rewind"))) {
            if (!Files.isExecutable(p)) {
                missing.add(p);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("--db-ha runs Debian's Patroni, etcd and PostgreSQL, and " + missing
                    + " " + (missing.size() == 1 ? "is" : "are") + " missing: apt-get install " + PACKAGES
                    + " (the launcher does so itself when it runs as root)");
        }
    }

    private Connection superuser(PatroniNode node) throws IOException, SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("password", secrets().getProperty("SUPERUSER_PASSWORD"));
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
    public void watch() {
        watch(DEFAULT_RESTART_DELAY);
    }

    /**
     * As {@link #watch()}, a dead node started again once it has been dead for {@code delay}. Called again
     * while the watch runs, it changes the delay of the running watch: the chaos runner leaves a killed
     * primary down longer than Patroni's ttl, so that its lock expires and the standby takes over.
     */
    public void watch(Duration delay) {
        watch.start(delay, this::loop);
    }

    private void loop() {
        while (watch.running()) {
            try {
                List<Node> all = new ArrayList<>(etcd);
                all.addAll(nodes);
                for (Node n : all) {
                    reviveIfDead(n);
                }
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (!watch.running()) {
                    return;
                }
                LOG.error("Restarting a database node failed: {}", e.toString());
                Wait.sleep(2000);
            }
        }
    }

    private void reviveIfDead(Node n) throws Exception {
        if (n.isAlive()) {
            deadSince.remove(n);
            return;
        }
        long since = deadSince.computeIfAbsent(n, k -> System.nanoTime());
        if (System.nanoTime() - since < watch.delay().toNanos() || !watch.running()) {
            return;
        }
        LOG.warn("{} died; starting it again (a Patroni node rejoins as a standby, rewound if it had diverged)", n.name());
        n.kill9(); // whatever of it is left (a postmaster Patroni had detached) must not hold its directory
        n.start();
        deadSince.remove(n);
        restarts++;
    }

    private void stopWatching() {
        watch.stop();
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
        return restarts;
    }

    /**
     * Every host in the URL, the driver taking the one that accepts writes ({@code targetServerType=primary}),
     * checking again every 2 s which is which; a dead host refuses at once, an unreachable one costs at most
     * {@code connectTimeout}. The application's pool re-validates its connections after a failure.
     */
    public String jdbcUrl() {
        return jdbcUrl(nodes.stream().map(n -> n.address() + ":" + n.pgPort()).toList(), appDatabase);
    }

    static String jdbcUrl(List<String> hostPorts, String database) {
        return "jdbc:postgresql://" + String.join(",", hostPorts) + "/" + database + "?" + URL_PARAMETERS;
    }

    /**
     * What bounds a failover for the driver: which host takes writes, re-checked every 2 s; 2 s to connect
     * and 5 s to log in to an unreachable host (a connection on one network takes milliseconds; every
     * consumer that tries an unreachable database holds its delivery that long, until the instance knows the
     * database is away and hands deliveries back); and 10 s without a byte on an open connection, after which it is
     * given up — a primary cut off (not dead) answers nothing and refuses nothing, and without this a
     * statement on it waits for TCP to give up, minutes later. Longer than any statement the application
     * runs on a healthy database; the pool's statement timeout (60 s) stays the bound on a slow one.
     */
    static final String URL_PARAMETERS = "targetServerType=primary&hostRecheckSeconds=2&connectTimeout=2"
            + "&loginTimeout=5&socketTimeout=10&tcpKeepAlive=true";

    /** The URL of {@code ./run --db-ha} with the default placement (every host on loopback). */
    public static String loopbackJdbcUrl(int basePort, String database) {
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            hosts.add("127.0.0.1:" + (basePort + i));
        }
        return jdbcUrl(hosts, database);
    }

    /** Every Patroni node's directory under the cluster's {@code dir}: what its processes' command lines name. */
    static List<String> patroniDirs(Path dir) {
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            dirs.add(dir.toAbsolutePath().normalize().resolve("pg" + (i + 1)).toString());
        }
        return dirs;
    }

    public Path dir() {
        return dir;
    }
}
