package io.overseer.launcher;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole stack in dependency order (PostgreSQL, Artemis, simulator, with --tracing Zipkin and the OTLP
 * relay, the application server of --runtime), each waited for, with the application server restarted if it dies. stop() undoes start() in
 * reverse order and is safe to call from a shutdown hook, twice, or after a failed start.
 *
 * <p>With --instances N the application servers (see {@link AppInstance}) start one after the other,
 * each ready before the next, and each gets its own {@link AppServerWatchdog}; they stop together.
 *
 * <p>Long because the start and stop orders of every node, and the undo of a failed start, are one sequence to
 * read.
 */
public final class Stack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Stack.class);

    private final LauncherOptions options;
    private final StackLayout layout;
    private final Path dataDir;
    private final PostgresNode postgres;
    private final PostgresHa postgresHa; // --db-ha: the replicated database instead of postgres
    private final HostNetwork network;   // --hosts namespaces: every process on a host of its own; else null
    private final BrokerNode broker;
    private final BrokerPair brokerPair; // --broker-ha: broker is its primary
    private final SimulatorNode simulator;
    private final TracingBackend tracing; // --tracing: Zipkin and the OTLP relay; else null
    private final List<AppInstance> instances;
    private final List<AppServerNode> appServers = new ArrayList<>();
    private final Deque<Node> started = new ConcurrentLinkedDeque<>();
    private final Object stopLock = new Object();
    private final List<AppServerWatchdog> watchdogs = new ArrayList<>();
    private FileChannel lockChannel;
    private FileLock lock;
    private volatile boolean stopping;
    /** --broker-tls: the broker's key and the trust store clients use; null otherwise. */
    private final TlsMaterial brokerTls;

    public Stack(LauncherOptions options, StackLayout layout) {
        this.options = options;
        this.layout = layout;
        this.dataDir = options.dataDir();
        Path logs = dataDir.resolve("logs");
        this.network = options.ownHosts() ? planNetwork(options) : null;
        this.postgres = options.embeddedDb() && !options.dbHa()
                ? new PostgresNode(dataDir.resolve("postgres"), options.dbPort(), logs.resolve("postgres.log"))
                : null;
        this.postgresHa = options.dbHa() ? new PostgresHa(layout, dataDir.resolve("postgres-ha"), options.dbPort(), logs,
                network == null ? PostgresHa.Placement.loopback() : PostgresHa.Placement.onHosts(network.host("db1"),
                        network.host("db2"), network.host("witness"), network.cidr())) : null;
        // A local broker gets an application user with a password made up at every start, and the demo user.
        BrokerUser application = options.localBroker()
                ? BrokerUser.generated("overseer-app", BrokerUser.APPLICATION)
                : new BrokerUser(options.brokerUser(), options.brokerPassword(), List.of(BrokerUser.APPLICATION));
        List<BrokerUser> brokerUsers = List.of(application, new BrokerUser(LauncherOptions.DEMO_USER,
                LauncherOptions.DEMO_PASSWORD, BrokerUser.CLIENT_ROLES));
        // The primary keeps the single broker's folder: switching --broker-ha on keeps the journal.
        this.brokerPair = options.brokerHa()
                ? new BrokerPair(layout, dataDir.resolve("broker"), dataDir.resolve("broker-backup"),
                        options.brokerPort(), options.brokerBackupPort(), options.consolePort(),
                        options.backupConsolePort(), logs, brokerUsers, placed("broker"), placed("broker2"))
                : null;
        if (brokerPair != null) {
            this.broker = brokerPair.primary();
        } else {
            this.broker = options.localBroker()
                    ? new BrokerNode(layout, dataDir.resolve("broker"), options.brokerPort(), options.consolePort(),
                            logs.resolve("artemis.log"), brokerUsers)
                    : null;
            if (broker != null) {
                broker.placeOn(placed("broker"));
            }
        }
        try {
            // Made here (the adapter's settings name the trust store), in the data directory closed to others.
            this.brokerTls = options.brokerTls()
                    ? TlsMaterial.inDirectory(OwnerOnly.directory(dataDir).resolve("tls")) : null;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Could not make the broker's TLS certificate in " + dataDir.resolve("tls"), e);
        }
        if (brokerTls != null) {
            broker.useTls(brokerTls);
        }
        this.simulator = new SimulatorNode(layout, dataDir.resolve("simulator"), options.simulatorPort(),
                logs.resolve("simulator.log"));
        simulator.placeOn(placed("sim"));
        this.tracing = options.tracing() ? new TracingBackend(layout, dataDir.resolve("zipkin"), options.zipkinPort(),
                options.otlpPort(), logs.resolve("zipkin.log")) : null;
        this.instances = AppInstance.plan(options);
        for (AppInstance instance : instances) {
            Host host = placed("app" + instance.number());
            String brokerHost = broker == null ? options.effectiveBrokerHost() : broker.host().address();
            AppServerConfig config = new AppServerConfig(instance.httpPort(),
                    postgresHa == null ? options.effectiveDbUrl() : postgresHa.jdbcUrl(),
                    options.effectiveDbUser(), options.effectiveDbPassword(), brokerHost,
                    options.brokerPort(), application.name(), application.password(), simulator.baseUrl(),
                    samplesLinked(consoleLinked(traced(instance), options), dataDir),
                    null, host.isLoopback() ? options.bindAddress() : host.address()).withJit(options.serverJit());
            if (brokerPair != null) {
                config = config.withBrokerBackup(brokerPair.backup().host().address(), options.brokerBackupPort());
            }
            if (brokerTls != null) {
                config = config.withBrokerTls(brokerTls);
            }
            AppServerNode server = options.runtime().newNode(layout, instance.name(), instance.workDir(),
                    instance.logFile(), config);
            server.placeOn(host);
            // The local demo user exists only in the stack ./run creates; nothing else defaults to it.
            server.addRealmUser(new RealmUser(LauncherOptions.DEMO_USER, LauncherOptions.DEMO_PASSWORD,
                    RealmUser.ALL_ROLES));
            // ... and a read-only one, to see the operator console as a viewer sees it.
            server.addRealmUser(new RealmUser(LauncherOptions.VIEWER_USER, LauncherOptions.VIEWER_PASSWORD,
                    java.util.List.of("viewer")));
            appServers.add(server);
        }
    }

    /**
     * Starts everything or, on the first failure, stops what it had started and rethrows. Not synchronized
     * with stop(): a Ctrl-C during a slow start must be able to stop the half-started stack.
     */
    public void start() throws Exception {
        layout.verify(options.runtime(), true, options.localBroker());
        lockDataDir();
        stopLeftovers();
        if (network == null) {
            HttpPorts.requireFree(instances, options.bindAddress());
        }
        long t0 = System.nanoTime();
        try {
            if (network != null) {
                HostNetwork.removeLeftovers();
                network.open();
            }
            if (postgres != null) {
                startNode(postgres);
            }
            if (postgresHa != null) {
                startNode(postgresHa);
            }
            if (brokerPair != null) {
                startNode(brokerPair);
            } else if (broker != null) {
                startNode(broker);
            }
            startNode(simulator);
            if (tracing != null) {
                startNode(tracing); // before the servers, whose first requests are traced
            }
            writeSampleWorkflows(dataDir);
            for (AppServerNode server : appServers) {
                startNode(server);
            }
        } catch (Exception e) {
            stop();
            throw e;
        }
        synchronized (stopLock) {
            if (stopping) {
                throw new IllegalStateException("stack stopped while starting");
            }
            for (AppServerNode server : appServers) {
                AppServerWatchdog watchdog = new AppServerWatchdog(server);
                watchdogs.add(watchdog);
                watchdog.start();
            }
            if (brokerPair != null) {
                brokerPair.watch();
            }
            if (postgresHa != null) {
                postgresHa.watch();
            }
        }
        LOG.info("Stack ready in {} ms", (System.nanoTime() - t0) / 1_000_000);
    }

    private void startNode(Node node) throws Exception {
        synchronized (stopLock) {
            if (stopping) {
                throw new IllegalStateException("stack is stopping");
            }
            started.push(node); // pushed first: a half-started process must be stopped too
        }
        node.start();
        if (stopping) {
            node.stop(); // stop() ran while this node was launching: do not leave it behind
            throw new IllegalStateException("stack stopped while starting " + node.name());
        }
    }

    /**
     * A launcher that was kill -9'd leaves its children running. Each node would stop its own leftover on
     * start, but in start order; here they go in shutdown order, Payara before the database it uses.
     */
    private void stopLeftovers() {
        // Every instance directory of every runtime: the earlier launcher may have run more instances, or another one.
        for (AppRuntime runtime : AppRuntime.values()) {
            StaleProcesses.stopUsing(AppInstance.allWorkDirs(dataDir, runtime).stream().map(Path::toString).toList(),
                    "TERM", runtime.label());
        }
        StaleProcesses.stopUsing(dataDir.resolve("simulator").toString(), "TERM", "simulator");
        StaleProcesses.stopUsing(dataDir.resolve("zipkin").toString(), "TERM", "Zipkin");
        StaleProcesses.stopUsing(dataDir.resolve("broker-backup").toString(), "TERM", "Artemis backup");
        StaleProcesses.stopUsing(dataDir.resolve("broker").toString(), "TERM", "Artemis");
        StaleProcesses.stopUsing(dataDir.resolve("postgres").toString(), "INT", "PostgreSQL");
        // Patroni before the etcd it keeps its lock in; a postmaster it had detached names its node's directory.
        StaleProcesses.stopUsing(PostgresHa.patroniDirs(dataDir.resolve("postgres-ha")), "TERM", "Patroni or PostgreSQL");
        StaleProcesses.stopUsing(dataDir.resolve("postgres-ha").toString(), "TERM", "etcd");
    }

    /** Two launchers on one data directory would kill each other's children as "stale": refuse early. */
    private synchronized void lockDataDir() throws IOException {
        if (lock != null) {
            return;
        }
        // Owner only: it holds the broker's and the servers' generated configuration, passwords included.
        OwnerOnly.directory(dataDir);
        lockChannel = FileChannel.open(dataDir.resolve("launcher.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        lock = lockChannel.tryLock();
        if (lock == null) {
            lockChannel.close();
            lockChannel = null;
            throw new IllegalStateException("another launcher is running on " + dataDir
                    + " (use --data-dir for a second stack)");
        }
    }

    /**
     * Watchdogs first (so Payara's exit is not taken as a crash), then the nodes in reverse order; the
     * application servers, started last, all at once: each may take its shutdown grace to finish work in
     * flight, and one after the other that would add up.
     */
    public void stop() {
        synchronized (stopLock) {
            stopping = true;
            watchdogs.forEach(AppServerWatchdog::stop);
            List<Node> servers = new ArrayList<>();
            while (started.peek() instanceof AppServerNode) {
                servers.add(started.pop());
            }
            stopTogether(servers);
            while (!started.isEmpty()) {
                stopQuietly(started.pop());
            }
            if (network != null) {
                network.close(); // after every process in it has stopped
            }
            releaseLock();
        }
    }

    private static void stopTogether(List<Node> nodes) {
        if (nodes.size() == 1) {
            stopQuietly(nodes.get(0));
            return;
        }
        List<Thread> threads = nodes.stream()
                .map(n -> new Thread(() -> stopQuietly(n), "overseer-stop-" + n.name())).toList();
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            try {
                t.join(); // bounded: a node's stop ends in SIGKILL after its grace
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void stopQuietly(Node n) {
        try {
            n.stop();
        } catch (RuntimeException e) {
            LOG.error("Stopping {} failed", n.name(), e);
        }
    }

    private void releaseLock() {
        try {
            if (lock != null) {
                lock.release();
                lockChannel.close();
            }
        } catch (IOException e) {
            LOG.debug("releasing the data-dir lock: {}", e.toString());
        }
        lock = null;
        lockChannel = null;
    }

    @Override
    public void close() {
        stop();
    }

    public LauncherOptions options() {
        return options;
    }

    /** The embedded database; null with --db-ha or an external database. */
    public PostgresNode postgres() {
        return postgres;
    }

    /** --hosts namespaces: the hosts every process runs on, to cut and heal links; else null. */
    public HostNetwork network() {
        return network;
    }

    /** The host named {@code name} with --hosts namespaces, else this machine's loopback. */
    private Host placed(String name) {
        return network == null ? Host.LOOPBACK : network.host(name);
    }

    /** One host per instance, per broker node, per database host (and the etcd witness), and the simulator. */
    private static HostNetwork planNetwork(LauncherOptions options) {
        List<String> names = new ArrayList<>();
        for (int k = 1; k <= options.instances(); k++) {
            names.add("app" + k);
        }
        names.add("broker");
        if (options.brokerHa()) {
            names.add("broker2");
        }
        names.addAll(List.of("db1", "db2", "witness", "sim"));
        try {
            return HostNetwork.plan(names);
        } catch (IOException e) {
            throw new IllegalStateException("cannot plan the hosts' network: " + e.getMessage(), e);
        }
    }

    /** The replicated database of --db-ha, else null. */
    public PostgresHa postgresHa() {
        return postgresHa;
    }

    /** Null when an external broker is used; the primary with --broker-ha. */
    public BrokerNode broker() {
        return broker;
    }

    /** Null unless --broker-ha. */
    public BrokerPair brokerPair() {
        return brokerPair;
    }

    public SimulatorNode simulator() {
        return simulator;
    }

    /** Zipkin and the relay with --tracing, else null. */
    public TracingBackend tracing() {
        return tracing;
    }

    /**
     * The instance's application properties, with --tracing those that export its traces to the relay first, so
     * that a user's own -D otel.* (a sampler, say) wins.
     */
    private Map<String, String> traced(AppInstance instance) {
        Map<String, String> own = instance.appProperties(options.appProperties());
        if (tracing == null) {
            return own;
        }
        Map<String, String> merged = new java.util.LinkedHashMap<>(tracing.appProperties(instance.name()));
        merged.putAll(own);
        return merged;
    }

    /** The first (or only) application server. */
    public AppServerNode appServer() {
        return appServers.get(0);
    }

    /** Every application server, in start order; instance K is at index K - 1. */
    public List<AppServerNode> appServers() {
        return List.copyOf(appServers);
    }

    public List<AppInstance> instances() {
        return instances;
    }

    /** The first application server's; null before start. */
    public AppServerWatchdog watchdog() {
        return watchdogs.isEmpty() ? null : watchdogs.get(0);
    }

    public Path logDir() {
        return dataDir.resolve("logs");
    }

    /** The banner printed once everything is ready. */
    /** --broker-tls's key and trust stores, or null. */
    public TlsMaterial brokerTls() {
        return brokerTls;
    }

    public String summary() {
        return Summary.render(this);
    }

    /**
     * The application's properties, plus the address of the broker's own console when this stack starts
     * the broker, so that the operator console links to it (a user's own setting wins).
     */
    static Map<String, String> consoleLinked(Map<String, String> properties, LauncherOptions options) {
        if (!options.localBroker() || properties.containsKey(BROKER_CONSOLE_URL)) {
            return properties;
        }
        Map<String, String> linked = new java.util.LinkedHashMap<>(properties);
        linked.put(BROKER_CONSOLE_URL, "http://127.0.0.1:" + options.consolePort() + "/console");
        return linked;
    }

    static final String BROKER_CONSOLE_URL = "overseer.console.broker-console-url";
    static final String WORKFLOWS_FILE = "overseer.workflows.file";
    static final String SAMPLE_WORKFLOWS = "sample-workflows.json";

    /**
     * The sample workflows (beside the built-in "order": one with a parallel group, one that waits for an
     * approval), loaded in the stack ./run starts, whose simulator performs any operation, unless the
     * user names a workflows file or their own services (which may not perform the samples' operations,
     * and a deployment refuses a workflow whose operation no service performs).
     */
    static Map<String, String> samplesLinked(Map<String, String> properties, Path dataDir) {
        if (properties.containsKey(WORKFLOWS_FILE) || properties.containsKey("overseer.agent.http-services")) {
            return properties;
        }
        Map<String, String> linked = new java.util.LinkedHashMap<>(properties);
        linked.put(WORKFLOWS_FILE, dataDir.resolve(SAMPLE_WORKFLOWS).toAbsolutePath().toString());
        return linked;
    }

    /** Writes the samples ({@link #samplesLinked}) where the servers read them, fresh at every start. */
    private void writeSampleWorkflows(Path dataDir) throws java.io.IOException {
        try (var in = Stack.class.getResourceAsStream(SAMPLE_WORKFLOWS)) {
            if (in == null) {
                throw new IllegalStateException("the launcher jar lacks its resource " + SAMPLE_WORKFLOWS);
            }
            java.nio.file.Files.write(dataDir.resolve(SAMPLE_WORKFLOWS), in.readAllBytes());
        }
    }
}
