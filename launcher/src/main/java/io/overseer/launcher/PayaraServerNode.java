package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Payara Server 6 running the Overseer EAR (the ear module's artifact, unchanged) in a domain of its own
 * under the work directory. Every start is a fresh domain, as Payara Micro's is: a copy of a template
 * domain made once by {@code create-domain} (which takes ≈ 20 s here), so nothing of the last run is
 * redeployed before the listener-closing commands run.
 *
 * <p>The server JVM is the launcher's child, with no asadmin in between: its command line comes from
 * {@code start-domain --dry-run}, so stop(), kill9() and pid() act on the server itself, and the
 * watchdog sees it die. Server-config's http-closed.asadmin runs as the pre-boot command file (the HTTP
 * port never opens early, docs/health.md). Once the admin port answers, one {@code asadmin multimode}
 * runs post-boot.asadmin, the realm users, the EAR's deployment and http-open.asadmin, in that order. Not
 * as a post-boot command file: run by the boot thread, the adapter's deployment deadlocked in Payara's
 * configuration (JMSConfigListener waiting for a lock the boot thread held; seen at every try).
 *
 * <p>Ports: the domain's port base is the HTTP port - 80, so HTTP is the launcher's port and the admin
 * listener (no password: loopback only) is HTTP - 32 (see {@link #domainPorts}). Every listener is bound
 * to 127.0.0.1 (HTTP to the launcher's bind address), HTTPS is off.
 */
public final class PayaraServerNode extends AppServerNode {

    private static final Logger LOG = LoggerFactory.getLogger(PayaraServerNode.class);
    static final String DOMAIN = "overseer";
    static final String HTTP_LISTENER = "http-listener-1";
    private static final String MAIN_CLASS = "com.sun.enterprise.glassfish.bootstrap.ASMain";
    private static final String LISTENERS = "set configs.config.server-config.network-config.network-listeners.network-listener.";
    private static final String IIOP = "set configs.config.server-config.iiop-service.iiop-listener.";

    /** Made by {@link #domainTemplate} and checked there: a template from an older launcher is made again. */
    private static final String TEMPLATE_VERSION = "3";

    private List<String> dryRun; // the server's command line as start-domain prints it; the same every start

    public PayaraServerNode(StackLayout layout, String name, Path workDir, Path logFile, AppServerConfig config) {
        super(AppRuntime.PAYARA_SERVER, layout, name, workDir, logFile, config);
    }

    /** The port base create-domain gets: the HTTP listener then lands on the launcher's port. */
    static int portBase(int httpPort) {
        return httpPort - 80;
    }

    /** Every port the domain may open, by what create-domain calls it: all offsets from {@link #portBase}. */
    public static Map<String, Integer> domainPorts(int httpPort) {
        int base = portBase(httpPort);
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("HTTP", httpPort);
        ports.put("admin", base + 48);
        ports.put("IIOP", base + 37);
        ports.put("IIOP SSL", base + 38);
        ports.put("IIOP mutual auth", base + 39);
        ports.put("Hazelcast DAS", base + 49);
        ports.put("Hazelcast", base + 59);
        ports.put("OSGi shell", base + 66);
        ports.put("JMS", base + 76);
        ports.put("JMX", base + 86);
        return ports;
    }

    @Override
    protected ManagedProcess launch(AppServerConfig config, List<RealmUser> users) throws IOException {
        StaleProcesses.stopUsing(workDir.toString(), "TERM", label());
        int admin = domainPorts(config.httpPort()).get("admin");
        if (!HttpPorts.isFree("127.0.0.1", admin)) {
            throw new IllegalStateException(label() + ": its admin port " + admin + " (--http-port - 32) is taken by"
                    + " another process (ss -ltnp 'sport = :" + admin + "' shows which): choose another --http-port");
        }
        Path template = domainTemplate(config.httpPort());
        Path domains = workDir.resolve("domains");
        deleteTree(domains);
        copyTree(template.resolve(DOMAIN), domains.resolve(DOMAIN));
        Path preBoot = writePreBoot(config);
        writePostBoot(config, users);
        List<String> cmd = command(config, dryRun(domains, preBoot));
        // As for Payara Micro: two malloc arenas keep the resident size near what the JVM accounts for.
        return startProcess(cmd, workDir, Map.of("MALLOC_ARENA_MAX", "2"));
    }

    /**
     * The template domain, created once per port base (a changed --http-port makes a new one); the JDBC
     * driver goes into its lib/ for the server-level pool. The marker is written last: a creation cut short
     * is redone.
     */
    private Path domainTemplate(int httpPort) throws IOException {
        Path dir = workDir.resolve("domain-template");
        Path marker = dir.resolve("port-base");
        String base = Integer.toString(portBase(httpPort));
        String stamp = base + " v" + TEMPLATE_VERSION;
        if (Files.exists(marker) && Files.readString(marker).trim().equals(stamp)) {
            return dir;
        }
        deleteTree(dir);
        Files.createDirectories(dir);
        LOG.info("{}: creating the template domain (port base {}), once", label(), base);
        // --checkports=false: create-domain would refuse a port of the block that is in use although the
        // domain never opens it (HTTPS, base + 81, is disabled before boot); the ports it does open are
        // checked by the launcher (domainPorts).
        asadmin("create-domain", "--nopassword=true", "--checkports=false", "--portbase", base, "--domaindir",
                dir.toString(), DOMAIN);
        Files.copy(layout.postgresqlJar(), dir.resolve(DOMAIN).resolve("lib/postgresql.jar"));
        dataGridOnLoopback(dir.resolve(DOMAIN).resolve("config/domain.xml"));
        noOpenMq(dir.resolve(DOMAIN).resolve("config/domain.xml"));
        Files.writeString(marker, stamp);
        return dir;
    }

    /** Resources, users, the EAR and the open listener, through the admin port once it answers. */
    @Override
    protected void configure(ManagedProcess process) throws IOException {
        int admin = domainPorts(config().httpPort()).get("admin");
        long t0 = System.nanoTime();
        Wait.until(label() + " admin port", READY_TIMEOUT, () -> Wait.portOpen("127.0.0.1", admin), process::isAlive,
                () -> process.tail(60));
        asadmin("--port", Integer.toString(admin), "multimode", "--file", workDir.resolve("post-boot.asadmin").toString());
        LOG.info("{}: configured and deployed in {} ms after its admin port opened", label(),
                (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * The DAS's data grid (Hazelcast, on the port base + 49) listens on every interface by default, and its
     * asadmin command is refused before boot ("Command lookup failed"): the template's domain.xml gets the
     * addresses instead, the JVM -Dhazelcast.socket.bind.any=false (see {@link #command}).
     */
    private static void dataGridOnLoopback(Path domainXml) throws IOException {
        String xml = Files.readString(domainXml);
        String element = "<hazelcast-runtime-configuration ";
        if (!xml.contains(element)) {
            throw new IllegalStateException("no " + element.trim() + " in " + domainXml);
        }
        Files.writeString(domainXml, xml.replace(element,
                element + "das-bind-address=\"127.0.0.1\" interface=\"127.0.0.1\" "));
    }

    /**
     * Payara's own OpenMQ broker is not ours (Artemis is), yet transaction recovery starts it after boot, on
     * the port base + 76 and three random ports, every interface. server-config has no jms-service element
     * until something creates it (so a pre-boot "set" finds nothing): the template gets one, disabled.
     */
    private static void noOpenMq(Path domainXml) throws IOException {
        String xml = Files.readString(domainXml);
        String config = "<config name=\"server-config\">";
        if (!xml.contains(config) || xml.substring(xml.indexOf(config), xml.indexOf("</config>")).contains("<jms-service")) {
            throw new IllegalStateException("unexpected server-config (or a jms-service already) in " + domainXml);
        }
        Files.writeString(domainXml, xml.replace(config, config + System.lineSeparator()
                + "            <jms-service type=\"DISABLED\" default-jms-host=\"default_JMS_host\"><jms-host"
                + " name=\"default_JMS_host\" host=\"127.0.0.1\" lazy-init=\"true\"/></jms-service>"));
    }

    /**
     * Before boot: server-config's http-closed file, then every listener onto loopback and the transaction
     * log out of the (throw-away) domain, so a restarted server recovers what a kill -9 left in doubt.
     */
    Path writePreBoot(AppServerConfig config) throws IOException {
        String nl = System.lineSeparator();
        String http = config.bindAddress() == null ? "0.0.0.0" : config.bindAddress();
        Path txLog = Files.createDirectories(workDir.resolve("tx-log"));
        String text = listenerCommands(layout.httpClosedTemplate()) + nl
                + "# ./run: HTTP on its port and address, every other listener on loopback or off" + nl
                + LISTENERS + HTTP_LISTENER + ".address=" + http + nl
                + LISTENERS + HTTP_LISTENER + ".port=" + config.httpPort() + nl
                + LISTENERS + "http-listener-2.enabled=false" + nl
                + LISTENERS + "admin-listener.address=127.0.0.1" + nl
                + IIOP + "orb-listener-1.address=127.0.0.1" + nl
                + IIOP + "SSL.address=127.0.0.1" + nl
                + IIOP + "SSL_MUTUALAUTH.address=127.0.0.1" + nl
                + "set configs.config.server-config.admin-service.jmx-connector.system.address=127.0.0.1" + nl

                + "set configs.config.server-config.transaction-service.tx-log-dir="
                + Templates.asadminEscape(txLog.toString()) + nl;
        Path out = workDir.resolve("pre-boot.asadmin");
        Files.writeString(out, text);
        return out;
    }

    /** For the running server, in order: resources, realm users, the EAR, and the listener opened once it is deployed. */
    Path writePostBoot(AppServerConfig config, List<RealmUser> users) throws IOException {
        String nl = System.lineSeparator();
        Map<String, String> values = new HashMap<>(config.postBootValues(layout.rar().toString()));
        values.put("HTTP_LISTENER", HTTP_LISTENER);
        String text = Templates.substitute(Files.readString(layout.postBootTemplate()), values);
        Set<String> left = Templates.unresolved(text);
        if (!left.isEmpty()) {
            LOG.warn("post-boot.asadmin template has placeholders the launcher does not know: {}", left);
        }
        text += nl + realmUserCommands(users)
                + "deploy --name overseer " + layout.ear() + nl
                + listenerCommands(layout.httpOpenTemplate()) + nl;
        Path out = workDir.resolve("post-boot.asadmin");
        OwnerOnly.write(out, text); // it holds the broker's and the database's passwords
        return out;
    }

    private String listenerCommands(Path template) throws IOException {
        return Templates.substitute(Files.readString(template), Map.of("HTTP_LISTENER", HTTP_LISTENER));
    }

    /** start-domain's command line, asked for once; package-private for tests. */
    private synchronized List<String> dryRun(Path domains, Path preBoot) throws IOException {
        if (dryRun == null) {
            String out = asadmin("start-domain", "--dry-run", "--domaindir", domains.toString(),
                    "--prebootcommandfile", preBoot.toString(), DOMAIN);
            dryRun = parseDryRun(out);
        }
        return dryRun;
    }

    /** The lines between "Dump of JVM Invocation line" and "Command start-domain executed", one argument each. */
    static List<String> parseDryRun(String out) {
        List<String> cmd = new ArrayList<>();
        boolean inside = false;
        for (String line : out.split("\\R")) {
            if (line.startsWith("Dump of JVM Invocation line")) {
                inside = true;
            } else if (line.startsWith("Command start-domain")) {
                break;
            } else if (inside && !line.isBlank()) {
                cmd.add(line.trim());
            }
        }
        if (!cmd.contains(MAIN_CLASS)) {
            throw new IllegalStateException("start-domain --dry-run printed no server command line:\n" + out);
        }
        return cmd;
    }

    /**
     * The dry run's command with this node's heap, the application's system properties (MicroProfile
     * Config reads them as on Micro) and the server's log on standard output too (-verbose true), so the
     * launcher's log file and its error messages show it.
     */
    static List<String> command(AppServerConfig c, List<String> dryRun) {
        List<String> jvm = new ArrayList<>();
        List<String> main = new ArrayList<>();
        boolean args = false;
        for (String a : dryRun) {
            args |= a.equals(MAIN_CLASS);
            if (args) {
                main.add(a);
            } else if (!a.startsWith("-Xmx")) {
                jvm.add(a);
            }
        }
        jvm.add("-Xmx" + c.maxHeap());
        jvm.add("-Dhazelcast.socket.bind.any=false"); // with the template's interface: the data grid on loopback
        jvm.add("-Dh2.bindAddress=127.0.0.1"); // the EJB timer database's H2 (AUTO_SERVER) opens a TCP port
        if (c.remoteServiceUrl() != null) {
            jvm.add("-Doverseer.remote-service.url=" + c.remoteServiceUrl());
        }
        c.appProperties().forEach((k, v) -> jvm.add("-D" + k + "=" + v));
        int verbose = main.indexOf("-verbose");
        if (verbose >= 0 && verbose + 1 < main.size()) {
            main.set(verbose + 1, "true");
        }
        jvm.addAll(main);
        return jvm;
    }

    /** Runs asadmin (as a jar on the launcher's JDK) to completion; its output goes to the node's log too. */
    private String asadmin(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Java.executable(), "-jar", layout.payaraServerCli().toString(),
                "--interactive=false"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        String out = new String(p.getInputStream().readAllBytes());
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException(label() + ": asadmin " + String.join(" ", args) + " failed (exit " + p.exitValue()
                        + "):\n" + out);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(label() + ": interrupted in asadmin " + args[0], e);
        }
        Files.createDirectories(logFile().getParent());
        Files.writeString(logFile(), "asadmin " + String.join(" ", args) + System.lineSeparator() + out,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return out;
    }
}
