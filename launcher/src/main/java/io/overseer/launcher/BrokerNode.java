package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A local Artemis broker: {@code bin/artemis run} of its instance as a child. The instance's files are
 * {@link BrokerInstance}'s: created once, and broker.xml, users and plugin rewritten at every start, so
 * template changes apply without deleting the instance (its data stays).
 */
public final class BrokerNode extends ProcessNode implements BrokerNodes {

    private final BrokerInstance instance;
    private final int port;
    private final int consolePort;
    private final List<BrokerUser> users;
    private final BrokerHa ha; // null: a broker of its own
    private Optional<TlsMaterial> tls = Optional.empty();

    /**
     * {@code users} are all the broker knows, written at every start (so passwords made up for this run
     * replace the last run's); the first is the application server's, see {@link #user()}.
     */
    public BrokerNode(StackLayout layout, Path instanceDir, int port, int consolePort, Path logFile,
                      List<BrokerUser> users) {
        this(layout, instanceDir, port, consolePort, logFile, users, null);
    }

    /** One node of a replicated pair ({@code ha} non-null), see {@link BrokerPair}. */
    public BrokerNode(StackLayout layout, Path instanceDir, int port, int consolePort, Path logFile,
                      List<BrokerUser> users, BrokerHa ha) {
        super(logFile, Duration.ofSeconds(30));
        if (users.isEmpty()) {
            throw new IllegalArgumentException("the broker needs at least the application's user");
        }
        this.port = port;
        this.consolePort = consolePort;
        this.users = List.copyOf(users);
        this.ha = ha;
        this.instance = new BrokerInstance(layout, instanceDir.toAbsolutePath().normalize(), port, consolePort,
                logFile(), this.users, ha);
    }

    @Override
    public String name() {
        return ha == null ? "artemis" : "artemis-" + ha.role().label();
    }

    /** "Artemis", or "Artemis primary" / "Artemis backup": how log lines name it. */
    @Override
    public String label() {
        return ha == null ? "Artemis" : "Artemis " + ha.role().label();
    }

    /** Null for a broker of its own. */
    public BrokerHa ha() {
        return ha;
    }

    /**
     * Runs the existing instance again as it is, after a crash, as a service manager would
     * ({@code bin/artemis run} in the instance folder): nothing is created or rewritten, the journal is
     * the one the dead broker left. Waits until the broker is active again.
     */
    @Override
    public void restart() throws IOException {
        synchronized (this) {
            if (isAlive()) {
                throw new IllegalStateException(label() + " is still running (pid " + pid() + ")");
            }
        }
        start(this::run);
    }

    /**
     * A broker of its own, or a primary, is ready when active: its acceptor opens just before "AMQ221007:
     * Server is now active" (a restarted primary first syncs from the active backup, which then fails back).
     * A backup never opens its acceptor while passive: it is ready once "AMQ221024: Backup server … is
     * synchronized with primary server", i.e. once it could take over.
     */
    @Override
    protected String awaitReady(ManagedProcess p, long logStart) {
        boolean backup = ha != null && ha.role() == BrokerHa.Role.BACKUP;
        Wait.until(label(), Duration.ofSeconds(90),
                backup ? () -> LogTail.since(logFile(), logStart).contains("AMQ221024")
                        : () -> Wait.portOpen(host().address(), port) && LogTail.since(logFile(), logStart).contains("AMQ221007"),
                p::isAlive, () -> p.tail(40));
        return (backup ? "in sync" : "ready") + " on " + host().address() + ":" + port
                + ", console http://localhost:" + consolePort + "/console";
    }

    /**
     * Whether this node serves clients now: an active broker opens its acceptor, a passive backup does not
     * (and a backup that failed back closes it again).
     */
    public boolean acceptsClients() {
        return isAlive() && Wait.portOpen(host().address(), port);
    }

    /** A leftover broker of an earlier launcher stopped, the instance made ready, then run. */
    @Override
    protected ManagedProcess launch() throws IOException {
        StaleProcesses.stopUsing(instance.dir().toString(), "TERM", "Artemis");
        instance.prepare(host().address());
        return run();
    }

    private ManagedProcess run() throws IOException {
        return startProcess(instance.runCommand(), instance.dir(), BrokerInstance.javaHome());
    }

    /** Every client of this broker speaks TLS, to a key from {@code material}; call before {@link #start}. */
    public BrokerNode useTls(TlsMaterial material) {
        instance.useTls(material);
        tls = Optional.of(material);
        return this;
    }

    @Override
    public String clientHost() {
        return host().address();
    }

    /** With TLS, the servers trust this broker's certificate. */
    @Override
    public AppServerConfig wire(AppServerConfig config) {
        return tls.map(config::withBrokerTls).orElse(config);
    }

    @Override
    public List<SummaryRow> summaryRows() {
        return List.of(new SummaryRow("Artemis console", consoleUrl() + "   (login demo/demo)"),
                new SummaryRow("Broker", tls.map(t -> BrokerWiring.single("127.0.0.1", port).withTls(t).clientUrl()
                        + "   (TLS only; the certificate: " + t.trustStore().resolveSibling("broker.crt") + ")")
                        .orElse("tcp://127.0.0.1:" + port)));
    }

    public int port() {
        return port;
    }

    public int consolePort() {
        return consolePort;
    }

    /** The application server's broker user. */
    public String user() {
        return users.get(0).name();
    }

    public String password() {
        return users.get(0).password();
    }

    public List<BrokerUser> users() {
        return users;
    }

    public String consoleUrl() {
        return "http://localhost:" + consolePort + "/console";
    }
}
