package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * WildFly 39 ({@code standalone-full.xml}) running the Overseer EAR, the same file Payara Server deploys,
 * configured by the very scripts a user runs against their own server: server-config/wildfly's
 * {@code modules.cli} once per installation (the stack's unpacked distribution), {@code configure.cli}
 * offline into this node's own server directory ({@code jboss.server.base.dir}). No shell script runs: the
 * CLI and the server are started as {@code java -jar jboss-modules.jar}, and the server JVM is this node's
 * process, so stop(), kill9() and pid() act on the server itself.
 *
 * <p>The server's files are {@link WildFlyServerDir}'s: the configured server directory is kept as a
 * template (made again when the properties or the script change); every start copies its configuration
 * afresh and deploys the EAR through the deployment scanner, while {@code data/} (the transaction log, for
 * recovery after a kill -9) stays.
 *
 * <p>Ports: WildFly's own, moved by a port offset of HTTP - 8080, so HTTP is the launcher's port; health is
 * served on the management port (HTTP + 1910), like every WildFly. Everything listens on 127.0.0.1 (HTTP
 * and HTTPS on the launcher's bind address).
 */
public final class WildFlyNode extends AppServerNode {

    private static final int HTTP = 8080;
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

    private final WildFlyServerDir serverDir;

    public WildFlyNode(StackLayout layout, String name, Path workDir, Path logFile, AppServerConfig config) {
        super(AppRuntime.WILDFLY, layout, name, workDir, logFile, config);
        this.serverDir = new WildFlyServerDir(layout, this.workDir, label(), logFile());
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
        Path base = serverDir.prepare(config, users);
        Path home = layout.wildflyHome();
        // As for Payara: two malloc arenas keep the resident size near what the JVM accounts for.
        return startProcess(command(home, base, config), workDir, Map.of("MALLOC_ARENA_MAX", "2"));
    }

    /** The server's command line: what standalone.sh would run, with this node's heap, ports and properties. */
    List<String> command(Path home, Path base, AppServerConfig c) {
        List<String> cmd = new ArrayList<>(List.of(Java.executable(), "-Xms64m", "-Xmx" + c.maxHeap(),
                "-XX:MetaspaceSize=96M", "-XX:MaxMetaspaceSize=256m", "-Djava.net.preferIPv4Stack=true",
                "-Djava.awt.headless=true"));
        cmd.addAll(c.jit().jvmOptions());
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
                "-c", WildFlyServerDir.CONFIG,
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
}
