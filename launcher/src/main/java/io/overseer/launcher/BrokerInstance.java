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
 * The files of a local Artemis broker's instance, the setup half of {@link BrokerNode} (which runs it): the
 * instance is created once with the distribution's CLI ({@code artemis create}); its users, roles,
 * broker.xml and the broker policy plugin are written again before every start ({@link #prepare}), so that
 * template changes and passwords made up for this run apply without deleting the instance (its data stays).
 */
final class BrokerInstance {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerInstance.class);
    private static final String CREATED_MARKER = ".overseer-created";

    private final StackLayout layout;
    private final Path dir;
    private final int port;
    private final int consolePort;
    private final Path logFile;
    private final List<BrokerUser> users;
    private final BrokerHa ha; // null: a broker of its own
    /** Null: plain TCP; else the acceptor speaks TLS only, with this key ({@link #useTls}). */
    private volatile TlsMaterial tls;

    /** {@code logFile}: where {@code artemis create} writes, the broker's own log. */
    BrokerInstance(StackLayout layout, Path dir, int port, int consolePort, Path logFile, List<BrokerUser> users,
                   BrokerHa ha) {
        this.layout = layout;
        this.dir = dir;
        this.port = port;
        this.consolePort = consolePort;
        this.logFile = logFile;
        this.users = users;
        this.ha = ha;
    }

    Path dir() {
        return dir;
    }

    void useTls(TlsMaterial material) {
        this.tls = material;
    }

    /** Creates the instance if it must, then writes what is written at every start; no broker running. */
    void prepare(String address) throws IOException {
        ensureInstance();
        writeUsers();
        allowLocalhostOrigin();
        writeBrokerXml(address);
        installPolicy();
    }

    /** The instance's own script, as a service manager would run it. */
    List<String> runCommand() {
        return List.of(dir.resolve("bin/artemis").toString(), "run");
    }

    /**
     * Creates the instance if missing, or re-creates its configuration (--force keeps data/) when the ports
     * differ from the ones it was created with: ports live in bootstrap.xml and broker.xml.
     */
    private void ensureInstance() throws IOException {
        // "security=2": instances made before the broker roles (console role amq) are re-created.
        String signature = "port=" + port + " console=" + consolePort + " security=2";
        Path marker = dir.resolve(CREATED_MARKER);
        boolean exists = Files.isExecutable(dir.resolve("bin/artemis"));
        if (exists && Files.exists(marker) && Files.readString(marker).trim().equals(signature)) {
            return;
        }
        Path cli = layout.artemisHome().resolve("bin/artemis");
        makeExecutable(cli); // unpacking by Maven may drop the mode bit
        List<String> cmd = createCommand(cli, users.get(0).name(), port, consolePort);
        if (exists) {
            cmd.add("--force");
        }
        cmd.add(dir.toString());
        Files.createDirectories(dir.getParent());
        LOG.info("Creating Artemis instance in {}", dir);
        ManagedProcess create = ManagedProcess.start("artemis-create", cmd, dir.getParent(), logFile, javaHome());
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
        writePrivate(dir.resolve("etc/artemis-users.properties"), usersFile.toString());
        writePrivate(dir.resolve("etc/artemis-roles.properties"), rolesFile.toString());
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
        Path access = dir.resolve("etc/jolokia-access.xml");
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
                    + " (./mvnw -B -DskipTests install)");
        }
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.copy(jar, lib.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }

    /** Replaces the created broker.xml with the project's template, if server-config provides one. */
    /** {@code address}: where the acceptor listens, the node's host's address. */
    private void writeBrokerXml(String address) throws IOException {
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
                "BROKER_HOST", address,
                "ACCEPTOR_TLS", tls == null ? "" : tls.acceptorParameters(),
                "DATA_DIR", dir.resolve("data").toString()));
        if (ha != null) {
            text = BrokerXml.withReplication(text, Files.readString(layout.haReplicationTemplate()),
                    Files.readString(layout.haRoleTemplate(ha.role())));
            values.put("PEER_PORT", Integer.toString(ha.peerPort()));
            values.put("PEER_HOST", ha.peerHost());
            values.put("CLUSTER_USER", ha.clusterUser());
            values.put("CLUSTER_PASSWORD", ha.clusterPassword());
        }
        String xml = BrokerXml.withClients(Templates.substitute(text, values), clientQueueLimits(users));
        Set<String> left = Templates.unresolved(xml);
        if (!left.isEmpty()) {
            LOG.warn("broker.xml template has placeholders the launcher does not know: {}", left);
        }
        Files.writeString(dir.resolve("etc/broker.xml"), xml);
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
    static Map<String, String> javaHome() {
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
}
