package io.overseer.chaos;

import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.BrokerNode;
import io.overseer.launcher.BrokerPair;
import io.overseer.launcher.LauncherOptions;
import io.overseer.launcher.PostgresNode;
import io.overseer.launcher.ReplicatedDatabase;
import io.overseer.launcher.Stack;
import io.overseer.launcher.StackLayout;
import io.overseer.launcher.lab.HostNetwork;
import io.overseer.launcher.lab.PostgresHa;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The stack under test, started in this JVM with the launcher's own classes (so the runner holds every
 * node and can kill, pause and restart it) on free loopback ports and a fresh data directory. The
 * launcher's watchdog restarts a dead application instance as it does under ./run; the broker and
 * PostgreSQL are restarted by the fault that killed them, as a service manager would. With
 * {@code --broker-ha} the launcher starts the replicated pair as {@code ./run --broker-ha} does (the
 * application servers wired to both nodes) and its watch restarts a dead node; the runner's own clients
 * use the pair's URL list. With {@code --db-ha} the launcher starts the replicated PostgreSQL as
 * {@code ./run --db-ha} does (two Patroni hosts, three etcd members, the application naming both hosts);
 * its watch restarts a dead host, later than under ./run ({@link #DB_RESTART_DELAY}), and the runner's own
 * reads use the same multi-host URL.
 */
final class ChaosStack implements AutoCloseable {

    static final String LOOPBACK = "127.0.0.1";
    /**
     * Shorter attempt deadlines than the defaults (30 s, retries 60 s), so that work a fault stranded is
     * recovered within the quiet period of a short run; the recovery paths are the same.
     */
    static final Map<String, String> APP_PROPERTIES = Map.of(
            "overseer.scheduler.complete-by", "PT15S");
    /**
     * How long a dead database host stays down before the watch starts it again: longer than Patroni's ttl
     * (10 s, server-config/postgres-ha/patroni.yml). The launcher's 3 s would bring a killed primary back
     * while it still holds the leader lock, and it would take the lead back itself: no failover at all.
     */
    static final Duration DB_RESTART_DELAY = Duration.ofSeconds(15);

    private final Stack stack;
    private final int firstHttpPort;
    private final int brokerPort;
    private final boolean brokerHa;
    private final boolean dbHa;
    private final boolean partitions;
    private final int simulatorPort;

    ChaosStack(Path repoRoot, Path dataDir, int instances, long seed, boolean brokerHa, boolean dbHa) {
        this(repoRoot, dataDir, instances, seed, brokerHa, dbHa, false);
    }

    /** {@code partitions}: every process on a host of its own (--hosts namespaces), so links can be cut. */
    ChaosStack(Path repoRoot, Path dataDir, int instances, long seed, boolean brokerHa, boolean dbHa, boolean partitions) {
        // HTTP ports, simulator, broker and the backup above it (the launcher's rule), two consoles, PostgreSQL
        // (with --db-ha the replicated one's ports, from the database port up).
        int base = freeRange(instances + 5 + (dbHa ? ReplicatedDatabase.PORTS : 1), new Random(seed ^ System.nanoTime()));
        this.firstHttpPort = base;
        this.simulatorPort = base + instances;
        this.brokerPort = base + instances + 1;
        this.brokerHa = brokerHa;
        this.dbHa = dbHa;
        this.partitions = partitions;
        int dbPort = base + instances + 5;
        List<String> args = new ArrayList<>(List.of(
                "--data-dir", dataDir.toString(),
                "--stack-dir", repoRoot.resolve("launcher/target/stack").toString(),
                "--instances", Integer.toString(instances),
                "--bind-address", LOOPBACK,
                "--http-port", Integer.toString(firstHttpPort),
                "--simulator-port", Integer.toString(simulatorPort),
                "--broker-port", Integer.toString(brokerPort),
                "--console-port", Integer.toString(base + instances + 3),
                "--db-port", Integer.toString(dbPort)));
        if (brokerHa) {
            args.add("--broker-ha");
        }
        if (dbHa) {
            args.add("--db-ha");
        }
        if (partitions) {
            args.addAll(List.of("--hosts", "namespaces"));
        }
        APP_PROPERTIES.forEach((k, v) -> args.addAll(List.of("-D", k + "=" + v)));
        // No environment: OVERSEER_* variables of a ./run in this shell must not leak into the run's stack.
        LauncherOptions options = LauncherOptions.parse(args.toArray(String[]::new), Map.of());
        this.stack = new Stack(options, StackLayout.fromDirectory(repoRoot.resolve("launcher/target/stack")));
    }

    void start() throws Exception {
        stack.start();
        if (dbHa) {
            stack.postgresHa().watch(DB_RESTART_DELAY); // the running watch's delay; no fault strikes before this
        }
    }

    List<AppServerNode> instances() {
        return stack.appServers();
    }

    /** The single broker, or the pair's primary. */
    BrokerNode broker() {
        return stack.broker();
    }

    boolean brokerHa() {
        return brokerHa;
    }

    /** Fails without --broker-ha. */
    BrokerPair brokerPair() {
        return stack.brokerPair();
    }

    /**
     * The pair as seen from outside, for {@link PairTarget.Pair#settled}, reading the backup's log from
     * {@code backupLogFrom} on (its size when a fault struck: the in-sync line must be newer than the
     * fault, since a restarted backup writes nothing for seconds while its JVM starts), 0 for all of it.
     */
    PairTarget.Pair pairState(long backupLogFrom) {
        BrokerPair pair = stack.brokerPair();
        BrokerNode p = pair.primary();
        BrokerNode b = pair.backup();
        return new PairTarget.Pair(p.isAlive(), p.acceptsClients(), b.isAlive(), b.acceptsClients(),
                tail(b.logFile(), backupLogFrom, 256 * 1024));
    }

    /** The backup's log size now: the {@code backupLogFrom} of {@link #pairState(long)}. */
    long backupLogSize() {
        return stack.brokerPair().backup().logFile().toFile().length();
    }

    /** Fails with --db-ha. */
    PostgresNode postgres() {
        return stack.postgres();
    }

    boolean dbHa() {
        return dbHa;
    }

    /** Fails without --db-ha. */
    PostgresHa postgresHa() {
        return stack.postgresHa();
    }

    List<String> baseUrls() {
        return instances().stream().map(AppServerNode::baseUrl).toList();
    }

    String simulatorUrl() {
        return stack.simulator().baseUrl();
    }

    /** The Core URL of the broker, or of the pair ({@link #brokerUrl(String)}), without parameters. */
    String brokerUrl() {
        return brokerUrl("");
    }

    /**
     * The broker's Core URL with the given parameters ({@code a=1&b=2}, or empty): {@code tcp://h:p?…}, or
     * for the pair the list {@code (tcp://h:p,tcp://h:p+1)?…}. A passive backup's acceptor is closed, so a
     * new connection reaches whichever node serves. No {@code ha=true}: the runner's clients surface a
     * failure and decide themselves (a new connection from the list), as BrokerFailoverIT's client does.
     */
    String brokerUrl(String parameters) {
        if (partitions) {
            // Hosts of their own: each node at its host's address (the launcher's wiring, as the instances use it).
            io.overseer.launcher.BrokerWiring wiring = brokerHa ? stack.brokerPair().wiring()
                    : io.overseer.launcher.BrokerWiring.single(stack.broker().host().address(), brokerPort);
            String nodes = wiring.endpoints().stream().map(e -> "tcp://" + e.host() + ":" + e.port())
                    .collect(java.util.stream.Collectors.joining(","));
            nodes = brokerHa ? "(" + nodes + ")" : nodes;
            return parameters.isEmpty() ? nodes : nodes + "?" + parameters;
        }
        return brokerUrl(LOOPBACK, brokerPort, brokerHa, parameters);
    }

    /** Whether every process runs on a host of its own (--partitions). */
    boolean partitions() {
        return partitions;
    }

    /** The hosts every process runs on with --partitions; fails without. */
    HostNetwork network() {
        return stack.network();
    }

    static String brokerUrl(String host, int port, boolean pair, String parameters) {
        String nodes = pair ? "(tcp://" + host + ":" + port + ",tcp://" + host + ":" + (port + 1) + ")"
                : "tcp://" + host + ":" + port;
        return parameters.isEmpty() ? nodes : nodes + "?" + parameters;
    }

    /** With --db-ha every host, the driver taking the primary, as the application's URL. */
    String jdbcUrl() {
        return stack.database().jdbcUrl();
    }

    Path logDir() {
        return stack.logDir();
    }

    /** Where everything listens, for the log. */
    String summary() {
        return "instances " + baseUrls() + ", broker " + (brokerHa ? "pair " : "") + brokerUrl() + ", PostgreSQL "
                + (dbHa ? "under Patroni " : "") + jdbcUrl()
                + ", simulator " + simulatorUrl();
    }

    @Override
    public void close() {
        stack.stop();
    }

    /** The last {@code bytes} of a log file written from {@code from0} on ("" if none or unreadable). */
    static String tail(Path file, long from0, int bytes) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long from = Math.max(from0, raf.length() - bytes);
            if (from >= raf.length()) {
                return "";
            }
            byte[] buf = new byte[(int) (raf.length() - from)];
            raf.seek(from);
            raf.readFully(buf);
            return new String(buf, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** A run of {@code size} consecutive ports that are free on loopback now, from a random start. */
    private static int freeRange(int size, Random random) {
        for (int attempt = 0; attempt < 200; attempt++) {
            // Below Linux's ephemeral range (32768+): a port from it can be taken, while its server is down,
            // by a client retrying it that is given that very port (a self-connect), and the restarted server
            // cannot bind it (seen: a killed PostgreSQL could not come back, "Address already in use").
            int base = 20000 + random.nextInt(12700 - size);
            boolean free = true;
            for (int p = base; p < base + size && free; p++) {
                free = isFree(p);
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no " + size + " consecutive free ports found between 20000 and 32700");
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(LOOPBACK))) {
            s.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
