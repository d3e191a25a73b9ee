package io.overseer.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WildFly 39 ({@code standalone-full.xml}) running the Overseer EAR, the same file Payara Server deploys,
 * configured by the very scripts a user runs against their own server: server-config/wildfly's
 * {@code modules.cli} once per installation (the stack's unpacked distribution), {@code configure.cli}
 * offline into this node's own server directory ({@code jboss.server.base.dir}). No shell script runs: the
 * CLI and the server are started as {@code java -jar jboss-modules.jar}, and the server JVM is this node's
 * process, so stop(), kill9() and pid() act on the server itself.
 *
 * <p>The configured server directory is kept as a template (made again when the properties or the script
 * change); every start copies its configuration afresh and deploys the EAR through the deployment
 * scanner, while {@code data/} (the transaction log, for recovery after a kill -9) stays.
 *
 * <p>Ports: WildFly's own, moved by a port offset of HTTP - 8080, so HTTP is the launcher's port; health is
 * served on the management port (HTTP + 1910), like every WildFly. Everything listens on 127.0.0.1 (HTTP
 * and HTTPS on the launcher's bind address).
 */
public final class WildFlyNode extends AppServerNode {

    private static final Logger LOG = LoggerFactory.getLogger(WildFlyNode.class);
    private static final int HTTP = 8080;
    private static final String CONFIG = "standalone-full.xml";
    /** Written into the distribution once modules.cli has run there. */
    private static final String MODULES_MARKER = ".overseer-modules-installed";
    /** Module packages the server's JVM needs opened, as WildFly's standalone.sh passes them on JDK 17. */
    private static final List<String> MODULE_OPTIONS = List.of(
            "--add-exports=java.desktop/sun.awt=ALL-UNNAMED",
            "--add-exports=java.naming/com.sun.jndi.ldap=ALL-UNNAMED",
            "--add-exports=java.naming/com.sun.jndi.url.ldap=ALL-UNNAMED",
            "--add-exports=java.naming/com.sun.jndi.url.ldaps=ALL-UNNAMED",
            "--add-exports=jdk.naming.dns/com.sun.jndi.dns=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.security=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.management/javax.management=ALL-UNNAMED",
            "--add-opens=java.naming/javax.naming=ALL-UNNAMED");

    public WildFlyNode(StackLayout layout, String name, Path workDir, Path logFile, AppServerConfig config) {
        super(AppRuntime.WILDFLY, layout, name, workDir, logFile, config);
    }

    /** The port offset that puts WildFly's HTTP listener on {@code httpPort}. */
    static int portOffset(int httpPort) {
        return httpPort - HTTP;
    }

    /** Every port the server opens, by what it is: WildFly's defaults moved by {@link #portOffset}. */
    public static Map<String, Integer> serverPorts(int httpPort) {
        int offset = portOffset(httpPort);
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("HTTP", httpPort);
        ports.put("HTTPS", 8443 + offset);
        ports.put("management", 9990 + offset);
        ports.put("IIOP", 3528 + offset);
        return ports;
    }

    public int managementPort() {
        return serverPorts(config().httpPort()).get("management");
    }

    /** WildFly serves MicroProfile Health on its management interface, not beside the application. */
    @Override
    public String healthUrl() {
        return "http://127.0.0.1:" + managementPort() + "/health";
    }

    @Override
    protected ManagedProcess launch(AppServerConfig config, List<RealmUser> users) throws IOException {
        if (config.brokerBackupPort() != 0) {
            throw new UnsupportedOperationException(label() + ": a replicated broker pair (--broker-ha) is not wired for"
                    + " WildFly yet (server-config/wildfly/broker-pair.cli is untried); use --runtime payara-micro");
        }
        StaleProcesses.stopUsing(workDir.toString(), "TERM", label());
        serverPorts(config.httpPort()).forEach((what, port) -> {
            if (!HttpPorts.isFree("127.0.0.1", port)) {
                throw new IllegalStateException(label() + ": its " + what + " port " + port + " is taken by another process"
                        + " (ss -ltnp 'sport = :" + port + "' shows which): choose another --http-port");
            }
        });
        Files.createDirectories(workDir);
        Path home = layout.wildflyHome();
        installModules(home);
        Path template = configuredTemplate(home, config);
        Path base = workDir.resolve("server");
        for (String fresh : List.of("configuration", "deployments", "tmp")) {
            deleteTree(base.resolve(fresh));
        }
        copyTree(template.resolve("configuration"), base.resolve("configuration"));
        OwnerOnly.directory(base.resolve("configuration"));
        Files.createDirectories(base.resolve("deployments"));
        Files.createDirectories(base.resolve("data"));
        writeUsers(base.resolve("configuration"), users);
        Files.copy(layout.ear(), base.resolve("deployments/overseer.ear"), StandardCopyOption.REPLACE_EXISTING);
        // As for Payara: two malloc arenas keep the resident size near what the JVM accounts for.
        return startProcess(command(home, base, config), workDir, Map.of("MALLOC_ARENA_MAX", "2"));
    }

    /** The server's command line: what standalone.sh would run, with this node's heap, ports and properties. */
    List<String> command(Path home, Path base, AppServerConfig c) {
        List<String> cmd = new ArrayList<>(List.of(Java.executable(), "-Xms64m", "-Xmx" + c.maxHeap(),
                "-XX:MetaspaceSize=96M", "-XX:MaxMetaspaceSize=256m", "-Djava.net.preferIPv4Stack=true",
                "-Djava.awt.headless=true"));
        cmd.addAll(MODULE_OPTIONS);
        cmd.add("-Dorg.jboss.boot.log.file=" + base.resolve("log/server.log"));
        cmd.add("-Dlogging.configuration=file:" + base.resolve("configuration/logging.properties"));
        if (c.remoteServiceUrl() != null) {
            cmd.add("-Doverseer.remote-service.url=" + c.remoteServiceUrl());
        }
        c.appProperties().forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-jar", home.resolve("jboss-modules.jar").toString(), "-mp", home.resolve("modules").toString(),
                "org.jboss.as.standalone",
                "-Djboss.home.dir=" + home, "-Djboss.server.base.dir=" + base,
                "-c", CONFIG,
                "-b", c.bindAddress() == null ? "127.0.0.1" : c.bindAddress(),
                "-bmanagement", "127.0.0.1",
                "-Djboss.socket.binding.port-offset=" + portOffset(c.httpPort()),
                // The transaction manager's node id names this server's branches in the broker's and the
                // database's logs: WildFly's default, "1", would be every server's.
                "-Djboss.tx.node.id=" + txNodeId()));
        return cmd;
    }

    /** At most 23 bytes (the transaction manager's limit): the instance's name. */
    private String txNodeId() {
        String id = "overseer-" + name();
        return id.length() <= 23 ? id : id.substring(0, 23);
    }

    /** modules.cli, once per distribution (it adds files below its modules/); serialised across nodes. */
    private void installModules(Path home) throws IOException {
        synchronized (WildFlyNode.class) {
            Path marker = home.resolve(MODULES_MARKER);
            if (Files.exists(marker)) {
                return;
            }
            Path jipijapa;
            try (Stream<Path> jars = Files.list(home.resolve("modules/system/layers/base/org/eclipse/persistence/main"))) {
                jipijapa = jars.filter(p -> p.getFileName().toString().startsWith("jipijapa-eclipselink-")).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no jipijapa-eclipselink jar in " + home));
            }
            Map<String, String> properties = new LinkedHashMap<>();
            properties.put("overseer.postgresql.jar", layout.postgresqlJar().toString());
            properties.put("overseer.eclipselink.jar", layout.eclipselinkJar().toString());
            properties.put("overseer.jipijapa.jar", jipijapa.toString());
            Path props = writeProperties(workDir.resolve("modules.properties"), properties);
            LOG.info("{}: installing the PostgreSQL driver and EclipseLink as modules, once", label());
            cli(home, home.resolve("standalone"), props, layout.wildflyScript("modules.cli"));
            Files.delete(props);
            Files.writeString(marker, "modules.cli ran here" + System.lineSeparator());
        }
    }

    /**
     * The server directory with configure.cli applied offline, made again when the script or a value it
     * reads changed (the stamp is their digest). The marker is written last: a run cut short is redone.
     */
    private Path configuredTemplate(Path home, AppServerConfig c) throws IOException {
        Path dir = workDir.resolve("server-template");
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("overseer.db.url", c.dbUrl());
        properties.put("overseer.db.user", c.dbUser());
        properties.put("overseer.db.password", c.dbPassword());
        properties.put("overseer.broker.host", c.brokerHost());
        properties.put("overseer.broker.port", Integer.toString(c.brokerPort()));
        properties.put("overseer.broker.user", c.brokerUser());
        properties.put("overseer.broker.password", c.brokerPassword());
        String script = Files.readString(layout.wildflyScript("configure.cli"));
        String stamp = digest(script + properties);
        Path marker = dir.resolve("configured");
        if (Files.exists(marker) && Files.readString(marker).trim().equals(stamp)) {
            return dir;
        }
        deleteTree(dir);
        copyTree(home.resolve("standalone/configuration"), dir.resolve("configuration"));
        OwnerOnly.directory(dir.resolve("configuration")); // configure.cli writes the passwords into standalone-full.xml
        Path props = writeProperties(workDir.resolve("overseer.properties"), properties);
        Path offline = workDir.resolve("configure-offline.cli");
        Files.writeString(offline, "embed-server --server-config=" + CONFIG + " --std-out=discard" + System.lineSeparator()
                + script + System.lineSeparator() + "stop-embedded-server" + System.lineSeparator());
        long t0 = System.nanoTime();
        cli(home, dir, props, offline);
        Files.delete(props); // it holds the passwords; the server's configuration has them now
        LOG.info("{}: configure.cli applied offline in {} ms", label(), (System.nanoTime() - t0) / 1_000_000);
        Files.writeString(marker, stamp);
        return dir;
    }

    /** Properties for a CLI run, readable by their owner only (they hold passwords). */
    private static Path writeProperties(Path file, Map<String, String> properties) throws IOException {
        StringBuilder text = new StringBuilder();
        properties.forEach((k, v) -> {
            if (v.matches(".*[,()\"\\\\\\n].*")) {
                // The CLI's operation syntax: such a value would be cut or misread, not refused.
                throw new IllegalArgumentException(k + " must not contain a comma, a parenthesis, a quote or a backslash");
            }
            text.append(k).append('=').append(v).append(System.lineSeparator());
        });
        OwnerOnly.write(file, text.toString());
        return file;
    }

    /**
     * The application realm's users (web.xml's HTTP Basic runs against WildFly's default ApplicationRealm),
     * written as add-user.sh writes them: the digest of "name:realm:password", and the groups, which
     * the default security domain maps to roles of the same name.
     */
    static void writeUsers(Path configuration, List<RealmUser> users) throws IOException {
        StringBuilder passwords = new StringBuilder("#$REALM_NAME=ApplicationRealm$" + System.lineSeparator());
        StringBuilder roles = new StringBuilder();
        for (RealmUser user : users) {
            passwords.append(user.name()).append('=')
                    .append(digestHex("MD5", user.name() + ":ApplicationRealm:" + user.password()))
                    .append(System.lineSeparator());
            roles.append(user.name()).append('=').append(String.join(",", user.groups())).append(System.lineSeparator());
        }
        for (var file : Map.of("application-users.properties", passwords, "application-roles.properties", roles).entrySet()) {
            OwnerOnly.write(configuration.resolve(file.getKey()), file.getValue().toString());
        }
    }

    /** Runs a jboss-cli script to completion on the launcher's JDK; its output goes to the node's log too. */
    private void cli(Path home, Path base, Path properties, Path script) throws IOException {
        List<String> cmd = List.of(Java.executable(), "-Djboss.home.dir=" + home, "-Djboss.server.base.dir=" + base,
                "-Dlogging.configuration=file:" + home.resolve("bin/jboss-cli-logging.properties"),
                "-jar", home.resolve("jboss-modules.jar").toString(), "-mp", home.resolve("modules").toString(),
                "org.jboss.as.cli", "--resolve-parameter-values", "--properties=" + properties, "--file=" + script);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("JBOSS_HOME", home.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException(label() + ": jboss-cli " + script.getFileName() + " failed (exit "
                        + p.exitValue() + "):\n" + out);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(label() + ": interrupted in jboss-cli " + script.getFileName(), e);
        }
        Files.createDirectories(logFile().getParent());
        Files.writeString(logFile(), "jboss-cli " + script.getFileName() + System.lineSeparator() + out,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    private static String digest(String text) {
        return digestHex("SHA-256", text);
    }

    private static String digestHex(String algorithm, String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
