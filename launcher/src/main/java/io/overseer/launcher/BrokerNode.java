package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local Artemis broker: an instance created once with the distribution's CLI ({@code artemis create}),
 * then {@code bin/artemis run} as a child. The instance's broker.xml is rewritten from server-config's
 * template at every start, so template changes apply without deleting the instance (its data stays).
 */
public final class BrokerNode implements Node {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerNode.class);
    private static final String CREATED_MARKER = ".overseer-created";

    private final StackLayout layout;
    private final Path instanceDir;
    private final int port;
    private final int consolePort;
    private final Path logFile;
    private final List<BrokerUser> users;
    /** Null: plain TCP; else the acceptor speaks TLS only, with this key ({@link #useTls}). */
    private volatile TlsMaterial tls;
    private final BrokerHa ha; // null: a broker of its own
    private ManagedProcess process;

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
        if (users.isEmpty()) {
            throw new IllegalArgumentException("the broker needs at least the application's user");
        }
        this.layout = layout;
        this.instanceDir = instanceDir.toAbsolutePath().normalize();
        this.port = port;
        this.consolePort = consolePort;
        this.logFile = logFile.toAbsolutePath();
        this.users = List.copyOf(users);
        this.ha = ha;
    }

    @Override
    public String name() {
        return ha == null ? "artemis" : "artemis-" + ha.role().label();
    }

    /** "Artemis", or "Artemis primary" / "Artemis backup": how log lines name it. */
    public String label() {
        return ha == null ? "Artemis" : "Artemis " + ha.role().label();
    }

    /** Null for a broker of its own. */
    public BrokerHa ha() {
        return ha;
    }

    /** Launches under the lock, waits outside it, so stop() can interrupt a start that hangs. */
    @Override
    public void start() throws IOException {
        long t0 = System.nanoTime();
        long logStart = LogTail.size(logFile);
        awaitActive(launch(), t0, logStart);
    }

    /**
     * Runs the existing instance again as it is, after a crash, as a service manager would
     * ({@code bin/artemis run} in the instance folder): nothing is created or rewritten, the journal is
     * the one the dead broker left. Waits until the broker is active again.
     */
    public void restart() throws IOException {
        long t0 = System.nanoTime();
        long logStart = LogTail.size(logFile);
        ManagedProcess p;
        synchronized (this) {
            if (process != null && process.isAlive()) {
                throw new IllegalStateException(label() + " is still running (pid " + process.pid() + ")");
            }
            p = ManagedProcess.start(name(), List.of(instanceDir.resolve("bin/artemis").toString(), "run"),
                    instanceDir, logFile, javaHome());
            process = p;
        }
        awaitActive(p, t0, logStart);
    }

    /**
     * A broker of its own, or a primary, is ready when active: its acceptor opens just before "AMQ221007:
     * Server is now active" (a restarted primary first syncs from the active backup, which then fails back).
     * A backup never opens its acceptor while passive: it is ready once "AMQ221024: Backup server … is
     * synchronized with primary server", i.e. once it could take over.
     */
    private void awaitActive(ManagedProcess p, long t0, long logStart) {
        boolean backup = ha != null && ha.role() == BrokerHa.Role.BACKUP;
        Wait.until(label(), Duration.ofSeconds(90),
                backup ? () -> LogTail.since(logFile, logStart).contains("AMQ221024")
                        : () -> Wait.portOpen("127.0.0.1", port) && LogTail.since(logFile, logStart).contains("AMQ221007"),
                p::isAlive, () -> p.tail(40));
        LOG.info("{} {} on 127.0.0.1:{} (pid {}) in {} ms, console http://localhost:{}/console", label(),
                backup ? "in sync" : "ready", port, p.pid(), (System.nanoTime() - t0) / 1_000_000, consolePort);
    }

    /**
     * Whether this node serves clients now: an active broker opens its acceptor, a passive backup does not
     * (and a backup that failed back closes it again).
     */
    public boolean acceptsClients() {
        return isAlive() && Wait.portOpen("127.0.0.1", port);
    }

    private synchronized ManagedProcess launch() throws IOException {
        if (process != null && process.isAlive()) {
            return process;
        }
        StaleProcesses.stopUsing(instanceDir.toString(), "TERM", "Artemis");
        ensureInstance();
        writeUsers();
        allowLocalhostOrigin();
        writeBrokerXml();
        installPolicy();
        process = ManagedProcess.start(name(), List.of(instanceDir.resolve("bin/artemis").toString(), "run"),
                instanceDir, logFile, javaHome());
        return process;
    }

    /**
     * Creates the instance if missing, or re-creates its configuration (--force keeps data/) when the ports
     * differ from the ones it was created with: ports live in bootstrap.xml and broker.xml.
     */
    private void ensureInstance() throws IOException {
        // "security=2": instances made before the broker roles (console role amq) are re-created.
        String signature = "port=" + port + " console=" + consolePort + " security=2";
        Path marker = instanceDir.resolve(CREATED_MARKER);
        boolean exists = Files.isExecutable(instanceDir.resolve("bin/artemis"));
        if (exists && Files.exists(marker) && Files.readString(marker).trim().equals(signature)) {
            return;
        }
        Path cli = layout.artemisHome().resolve("bin/artemis");
        makeExecutable(cli); // unpacking by Maven may drop the mode bit
        List<String> cmd = createCommand(cli, user(), port, consolePort);
        if (exists) {
            cmd.add("--force");
        }
        cmd.add(instanceDir.toString());
        Files.createDirectories(instanceDir.getParent());
        LOG.info("Creating Artemis instance in {}", instanceDir);
        ManagedProcess create = ManagedProcess.start("artemis-create", cmd, instanceDir.getParent(), logFile, javaHome());
        if (!ManagedProcess.waitFor(create.toHandle(), Duration.ofSeconds(120)) || create.exitValueOr(-1) != 0) {
            create.kill9();
            throw new IllegalStateException("artemis create failed. Last log lines:\n" + create.tail(30));
        }
        Files.writeString(marker, signature + System.lineSeparator());
    }

    /**
     * The {@code artemis create} command line. The user it names gets a password made up here and never
     * used: {@link #writeUsers()} replaces the users file right after, before the broker first starts. A
     * command line is visible to every local user ({@code ps}) while it runs; the real passwords are only
     * ever in files readable by their owner.
     */
    static List<String> createCommand(Path cli, String user, int port, int consolePort) {
        byte[] random = new byte[24];
        new java.security.SecureRandom().nextBytes(random);
        return new ArrayList<>(List.of(cli.toString(), "create", "--silent",
                // The console admits this role (hawtio.role, management.xml); users are written by writeUsers().
                "--user", user, "--password", java.util.HexFormat.of().formatHex(random), "--role", BrokerUser.OPERATOR,
                "--require-login", "--name", "overseer",
                "--host", "127.0.0.1", "--http-host", "127.0.0.1", "--http-port", Integer.toString(consolePort),
                "--default-port", Integer.toString(port),
                // One acceptor only: protocol-specific ones use fixed ports that parallel test brokers share.
                "--no-amqp-acceptor", "--no-mqtt-acceptor", "--no-stomp-acceptor", "--no-hornetq-acceptor",
                "--nio", "--java-memory", "1G"));
    }

    /**
     * Replaces the users and roles the instance knows (Artemis re-reads both files when they change:
     * reload=true in etc/login.config). Passwords are hashed; the files are readable by their owner only.
     */
    private void writeUsers() throws IOException {
        StringBuilder usersFile = new StringBuilder("# Written by the Overseer launcher at every start.\n");
        Map<String, List<String>> members = new TreeMap<>();
        for (BrokerUser u : users) {
            usersFile.append(u.usersFileLine()).append('\n');
            u.roles().forEach(role -> members.computeIfAbsent(role, r -> new ArrayList<>()).add(u.name()));
        }
        clientQueueLimits(users).keySet().forEach(client -> members.put(BrokerUser.replyOwnerRole(client), List.of(client)));
        StringBuilder rolesFile = new StringBuilder("# Written by the Overseer launcher at every start.\n");
        members.forEach((role, names) -> rolesFile.append(role).append(" = ").append(String.join(",", names)).append('\n'));
        writePrivate(instanceDir.resolve("etc/artemis-users.properties"), usersFile.toString());
        writePrivate(instanceDir.resolve("etc/artemis-roles.properties"), rolesFile.toString());
    }

    private static void writePrivate(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * "create --http-host 127.0.0.1" lets the console's Jolokia accept only Origin 127.0.0.1, so the console
     * opened as http://localhost:PORT/console (what the summary prints) fails with 403: allow both names.
     */
    private void allowLocalhostOrigin() throws IOException {
        Path access = instanceDir.resolve("etc/jolokia-access.xml");
        if (!Files.exists(access)) {
            return;
        }
        String xml = Files.readString(access);
        String ip = "<allow-origin>*://127.0.0.1*</allow-origin>";
        if (xml.contains(ip) && !xml.contains("*://localhost*")) {
            Files.writeString(access, xml.replace(ip, ip + "\n        <allow-origin>*://localhost*</allow-origin>"));
        }
    }

    /**
     * The broker plugin broker.xml names (io.overseer.broker.OrderQueuePolicy) into the instance's lib/, which
     * the artemis script puts on the broker's class path. Copied at every start, so a rebuilt one is taken.
     */
    private void installPolicy() throws IOException {
        Path jar = layout.brokerPolicyJar();
        if (!Files.exists(jar)) {
            throw new IllegalStateException("the broker policy plugin broker.xml names is missing: " + jar
                    + " (mvn -B -DskipTests install)");
        }
        Path lib = Files.createDirectories(instanceDir.resolve("lib"));
        Files.copy(jar, lib.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }

    /** Replaces the created broker.xml with the project's template, if server-config provides one. */
    private void writeBrokerXml() throws IOException {
        Path template = layout.brokerXmlTemplate();
        if (!Files.exists(template)) {
            if (ha != null) {
                throw new IllegalStateException("a replicated pair needs server-config's broker.xml, missing at " + template);
            }
            LOG.info("No broker.xml template at {}; using the one 'artemis create' wrote", template);
            return;
        }
        String text = Files.readString(template);
        Map<String, String> values = new java.util.HashMap<>(Map.of(
                "BROKER_PORT", Integer.toString(port),
                "BROKER_HOST", "127.0.0.1",
                "ACCEPTOR_TLS", tls == null ? "" : tls.acceptorParameters(),
                "DATA_DIR", instanceDir.resolve("data").toString()));
        if (ha != null) {
            text = BrokerXml.withReplication(text, Files.readString(layout.haReplicationTemplate()),
                    Files.readString(layout.haRoleTemplate(ha.role())));
            values.put("PEER_PORT", Integer.toString(ha.peerPort()));
            values.put("CLUSTER_USER", ha.clusterUser());
            values.put("CLUSTER_PASSWORD", ha.clusterPassword());
        }
        String xml = BrokerXml.withClients(Templates.substitute(text, values), clientQueueLimits(users));
        Set<String> left = Templates.unresolved(xml);
        if (!left.isEmpty()) {
            LOG.warn("broker.xml template has placeholders the launcher does not know: {}", left);
        }
        Files.writeString(instanceDir.resolve("etc/broker.xml"), xml);
    }

    /** Every client of this broker speaks TLS, to a key from {@code material}; call before {@link #start}. */
    public BrokerNode useTls(TlsMaterial material) {
        this.tls = material;
        return this;
    }

    /** Queues one client user may hold at once: its reply queues and temporary queues (security issue 16). */
    static final int CLIENT_MAX_QUEUES = 32;

    /**
     * The clients' queue caps: every user that is neither the application (which makes a temporary queue per
     * management call and the notification queues clients ask for) nor an operator (who administers queues).
     */
    static Map<String, Integer> clientQueueLimits(List<BrokerUser> users) {
        Map<String, Integer> limits = new java.util.TreeMap<>();
        for (BrokerUser user : users) {
            if (!user.roles().contains(BrokerUser.APPLICATION) && !user.roles().contains(BrokerUser.OPERATOR)) {
                limits.put(user.name(), CLIENT_MAX_QUEUES);
            }
        }
        return limits;
    }

    /** The scripts pick java from JAVA_HOME: use the launcher's JDK rather than whatever PATH has. */
    private static Map<String, String> javaHome() {
        return Map.of("JAVA_HOME", System.getProperty("java.home"));
    }

    private static void makeExecutable(Path file) throws IOException {
        if (Files.exists(file) && !Files.isExecutable(file)) {
            Set<PosixFilePermission> perms = new HashSet<>(Files.getPosixFilePermissions(file));
            perms.add(PosixFilePermission.OWNER_EXECUTE);
            perms.add(PosixFilePermission.GROUP_EXECUTE);
            perms.add(PosixFilePermission.OTHERS_EXECUTE);
            Files.setPosixFilePermissions(file, perms);
        }
    }

    @Override
    public synchronized void stop() {
        if (process != null) {
            process.stop(Duration.ofSeconds(30));
            process = null;
            LOG.info("{} stopped", label());
        }
    }

    @Override
    public synchronized void kill9() {
        if (process != null) {
            process.kill9();
        }
    }

    @Override
    public boolean isAlive() {
        ManagedProcess p = process;
        return p != null && p.isAlive();
    }

    @Override
    public long pid() {
        ManagedProcess p = process;
        return p != null && p.isAlive() ? p.pid() : -1;
    }

    public int port() {
        return port;
    }

    /** The running process, for {@link BrokerPair}'s watch; null before start or after stop. */
    ManagedProcess process() {
        return process;
    }

    public Path logFile() {
        return logFile;
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
