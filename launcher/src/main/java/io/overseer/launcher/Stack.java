package io.overseer.launcher;

import io.overseer.launcher.lab.HostNetwork;
import io.overseer.launcher.lab.PostgresHa;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole stack in dependency order (PostgreSQL, Artemis, simulator, with --tracing Zipkin and the OTLP
 * relay, the application server of --runtime), each waited for, with the application server restarted if it dies. stop() undoes start() in
 * reverse order and is safe to call from a shutdown hook, twice, or after a failed start.
 *
 * <p>Each mode is chosen once, from the options, by the type that has it: the database ({@link DatabaseNode}:
 * embedded, replicated or external), the broker ({@link BrokerNodes}: one, the pair or external) and the
 * hosts ({@link Hosts}: the loopback or namespaces of their own). The stack starts, stops, watches and
 * prints them through those types, whatever the mode.
 *
 * <p>With --instances N the application servers (see {@link AppInstance}) start one after the other,
 * each ready before the next, and each gets its own {@link AppServerWatchdog}; they stop together.
 *
 * <p>It is the one way a stack is assembled: a program that starts servers of its own (the system tests) builds
 * it with {@link StackAdditions} and gives them {@link #serverConfig}, what each instance here gets.
 */
public final class Stack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Stack.class);

    private final LauncherOptions options;
    private final StackLayout layout;
    private final Path dataDir;
    private final Hosts hosts;
    private final DatabaseNode database;
    private final BrokerNodes brokers;
    private final SimulatorNode simulator;
    private final BrokerUser application; // the servers' user on the broker
    private final Optional<TracingBackend> tracing; // --tracing: Zipkin and the OTLP relay
    /** --broker-tls: the broker's key and the trust store clients use. */
    private final Optional<TlsMaterial> brokerTls;
    private final List<AppInstance> instances;
    private final List<AppServerNode> appServers = new ArrayList<>();
    /** What starts before the application servers, in order. */
    private final List<Node> backing = new ArrayList<>();
    private final Deque<Node> started = new ConcurrentLinkedDeque<>();
    private final Object stopLock = new Object();
    private final List<AppServerWatchdog> watchdogs = new ArrayList<>();
    private final DataDirLock lock;
    private volatile boolean stopping;

    public Stack(LauncherOptions options, StackLayout layout) {
        this(options, layout, StackAdditions.NONE);
    }

    /** The stack of {@code options} with a program's {@code additions} (the system tests' users, no servers). */
    public Stack(LauncherOptions options, StackLayout layout, StackAdditions additions) {
        this.options = options;
        this.layout = layout;
        this.dataDir = options.dataDir();
        this.lock = new DataDirLock(dataDir);
        this.hosts = Hosts.of(options);
        this.database = DatabaseNode.of(options, layout, hosts);
        // A local broker gets an application user with a password made up at every start, and the demo user.
        this.application = additions.applicationUser(options);
        List<BrokerUser> brokerUsers = new ArrayList<>(List.of(application, new BrokerUser(LauncherOptions.DEMO_USER,
                LauncherOptions.DEMO_PASSWORD, BrokerUser.CLIENT_ROLES)));
        brokerUsers.addAll(additions.brokerUsers());
        this.brokerTls = options.brokerTls() ? Optional.of(makeTls(dataDir)) : Optional.empty();
        this.brokers = BrokerNodes.of(options, layout, hosts, brokerUsers, brokerTls);
        this.simulator = new SimulatorNode(layout, dataDir.resolve("simulator"), options.simulatorPort(),
                dataDir.resolve("logs").resolve("simulator.log"));
        simulator.placeOn(hosts.place("sim"));
        this.tracing = options.tracing() ? Optional.of(TracingBackend.of(options, layout)) : Optional.empty();
        backing.addAll(List.of(database, brokers, simulator));
        tracing.ifPresent(backing::add); // before the servers, whose first requests are traced
        this.instances = additions.servers() ? AppInstance.plan(options) : List.of();
        for (AppInstance instance : instances) {
            appServers.add(appServer(instance));
        }
    }

    /** Made here (the adapter's settings name the trust store), in the data directory closed to others. */
    private static TlsMaterial makeTls(Path dataDir) {
        try {
            return TlsMaterial.inDirectory(OwnerOnly.directory(dataDir).resolve("tls"));
        } catch (IOException e) {
            throw new IllegalStateException("Could not make the broker's TLS certificate in " + dataDir.resolve("tls"), e);
        }
    }

    /** The instance's server, on its host, wired to the database, the broker and the simulator, with the demo users. */
    private AppServerNode appServer(AppInstance instance) {
        Host host = hosts.place("app" + instance.number());
        AppServerConfig config = serverConfig(instance.httpPort(), host.isLoopback() ? options.bindAddress()
                : host.address(), samplesLinked(consoleLinked(traced(instance), options), dataDir));
        AppServerNode server = options.runtime().newNode(layout, instance.name(), instance.workDir(),
                instance.logFile(), config);
        server.placeOn(host);
        // The local demo user exists only in the stack ./run creates; nothing else defaults to it.
        server.addRealmUser(new RealmUser(LauncherOptions.DEMO_USER, LauncherOptions.DEMO_PASSWORD,
                RealmUser.ALL_ROLES));
        // ... and a read-only one, to see the operator console as a viewer sees it.
        server.addRealmUser(new RealmUser(LauncherOptions.VIEWER_USER, LauncherOptions.VIEWER_PASSWORD,
                List.of("viewer")));
        return server;
    }

    /**
     * A server's settings wired to this stack's database, broker (as the application's user) and simulator: what
     * each of its instances runs with, and what a program that starts servers of its own on this stack gives them.
     */
    public AppServerConfig serverConfig(int httpPort, String bindAddress, Map<String, String> appProperties) {
        return brokers.wire(new AppServerConfig(httpPort, database.jdbcUrl(), options.effectiveDbUser(),
                options.effectiveDbPassword(), brokers.clientHost(), options.brokerPort(), application.name(),
                application.password(), simulator.baseUrl(), appProperties, null, bindAddress)
                .withJit(options.serverJit()));
    }

    /**
     * Starts everything or, on the first failure, stops what it had started and rethrows. Not synchronized
     * with stop(): a Ctrl-C during a slow start must be able to stop the half-started stack.
     */
    public void start() throws Exception {
        layout.verify(options.runtime(), true, options.localBroker());
        lock.acquire();
        Leftovers.stop(dataDir);
        long t0 = System.nanoTime();
        try {
            hosts.open(instances, options.bindAddress());
            for (Node node : backing) {
                startNode(node);
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
            brokers.watch();
            database.watch();
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
            hosts.close(); // after every process on them has stopped
            lock.release();
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

    @Override
    public void close() {
        stop();
    }

    public LauncherOptions options() {
        return options;
    }

    /** The embedded PostgreSQL, the replicated one or an external database. */
    public DatabaseNode database() {
        return database;
    }

    /** The embedded PostgreSQL; fails when this stack's database is another. */
    public PostgresNode postgres() {
        if (database instanceof PostgresNode postgres) {
            return postgres;
        }
        throw new IllegalStateException("this stack's database is not the embedded PostgreSQL but " + database.name()
                + " (" + database.jdbcUrl() + ")");
    }

    /** The replicated PostgreSQL of --db-ha; fails when this stack's database is another. */
    public PostgresHa postgresHa() {
        if (database instanceof PostgresHa ha) {
            return ha;
        }
        throw new IllegalStateException("this stack's database is not the replicated one of --db-ha but "
                + database.name() + " (" + database.jdbcUrl() + ")");
    }

    /** One broker, the pair of --broker-ha or an external broker. */
    public BrokerNodes brokers() {
        return brokers;
    }

    /** The broker this stack started: the only one, or the pair's primary; fails with an external broker. */
    public BrokerNode broker() {
        if (brokers instanceof BrokerNode single) {
            return single;
        }
        if (brokers instanceof BrokerPair pair) {
            return pair.primary();
        }
        throw new IllegalStateException("this stack starts no broker: it uses " + brokers.name() + " at "
                + brokers.clientHost());
    }

    /** The replicated pair of --broker-ha; fails when this stack has another broker. */
    public BrokerPair brokerPair() {
        if (brokers instanceof BrokerPair pair) {
            return pair;
        }
        throw new IllegalStateException("this stack has no broker pair (--broker-ha) but " + brokers.name());
    }

    /** Where every process runs: the loopback, or with --hosts namespaces hosts of their own. */
    public Hosts hosts() {
        return hosts;
    }

    /** --hosts namespaces: the hosts every process runs on, to cut and heal links; fails on the loopback. */
    public HostNetwork network() {
        if (hosts instanceof NamespaceHosts own) {
            return own.network();
        }
        throw new IllegalStateException("this stack runs every process on the loopback: hosts of their own, whose"
                + " links can be cut, are --hosts namespaces");
    }

    public SimulatorNode simulator() {
        return simulator;
    }

    /** Zipkin and the relay with --tracing. */
    public Optional<TracingBackend> tracing() {
        return tracing;
    }

    /**
     * The instance's application properties, with --tracing those that export its traces to the relay first, so
     * that a user's own -D otel.* (a sampler, say) wins.
     */
    private Map<String, String> traced(AppInstance instance) {
        Map<String, String> own = instance.appProperties(options.appProperties());
        return tracing.map(t -> {
            Map<String, String> merged = new java.util.LinkedHashMap<>(t.appProperties(instance.name()));
            merged.putAll(own);
            return merged;
        }).orElse(own);
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

    /** --broker-tls's key and trust stores. */
    public Optional<TlsMaterial> brokerTls() {
        return brokerTls;
    }

    /** The banner printed once everything is ready. */
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
    private void writeSampleWorkflows(Path dataDir) throws IOException {
        try (var in = Stack.class.getResourceAsStream(SAMPLE_WORKFLOWS)) {
            if (in == null) {
                throw new IllegalStateException("the launcher jar lacks its resource " + SAMPLE_WORKFLOWS);
            }
            Files.write(dataDir.resolve(SAMPLE_WORKFLOWS), in.readAllBytes());
        }
    }
}
