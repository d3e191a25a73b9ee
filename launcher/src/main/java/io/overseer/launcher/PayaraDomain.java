package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a {@link PayaraServerNode}'s domain, the setup half of it: a template domain made once per
 * port base by {@code create-domain}, copied afresh before every start; the pre-boot commands (listeners on
 * loopback, the transaction log outside the throw-away domain) and the post-boot ones (resources, realm
 * users, the EAR, the open listener); the server's command line from {@code start-domain --dry-run}; and
 * asadmin, run to completion on the launcher's JDK.
 */
final class PayaraDomain {

    private static final Logger LOG = LoggerFactory.getLogger(PayaraDomain.class);
    static final String DOMAIN = "overseer";
    static final String HTTP_LISTENER = "http-listener-1";
    static final String MAIN_CLASS = "com.sun.enterprise.glassfish.bootstrap.ASMain";
    private static final String LISTENERS = "set configs.config.server-config.network-config.network-listeners.network-listener.";
    private static final String IIOP = "set configs.config.server-config.iiop-service.iiop-listener.";

    /** Made by {@link #domainTemplate} and checked there: a template from an older launcher is made again. */
    private static final String TEMPLATE_VERSION = "3";

    private final StackLayout layout;
    private final Path workDir;
    private final String label;
    private final Path logFile;
    private List<String> dryRun; // the server's command line as start-domain prints it; the same every start

    /** {@code label} names the node in log lines and errors; asadmin's output is appended to {@code logFile}. */
    PayaraDomain(StackLayout layout, Path workDir, String label, Path logFile) {
        this.layout = layout;
        this.workDir = workDir;
        this.label = label;
        this.logFile = logFile;
    }

    /**
     * A fresh domain from the template, with the pre- and post-boot commands for {@code config} and
     * {@code users}; returns the server's command line as start-domain prints it. No server running.
     */
    List<String> prepare(AppServerConfig config, List<RealmUser> users) throws IOException {
        Path template = domainTemplate(config.httpPort());
        Path domains = workDir.resolve("domains");
        FileTrees.delete(domains);
        FileTrees.copy(template.resolve(DOMAIN), domains.resolve(DOMAIN));
        Path preBoot = writePreBoot(config);
        writePostBoot(config, users);
        return dryRun(domains, preBoot);
    }

    /**
     * The post-boot commands {@link #prepare} wrote, through the running server's admin port, in one multimode,
     * once that port serves commands. Multimode runs every command and exits 0 although one failed: seen on a
     * loaded machine, an admin port open before its command adapter answered the first command 404, and the
     * server ran without the broker's address. So the port is first asked a harmless command until it answers,
     * and a failed command fails the start, naming it.
     */
    void runPostBoot(int adminPort) throws IOException {
        String port = Integer.toString(adminPort);
        awaitCommands(port);
        String out = asadmin("--port", port, "multimode", "--file", workDir.resolve("post-boot.asadmin").toString());
        List<String> failed = failedCommands(out);
        if (!failed.isEmpty()) {
            throw new IllegalStateException(label + ": post-boot command(s) " + failed + " failed (see " + logFile + "):\n" + out);
        }
    }

    /** The commands a multimode run reports as failed, in its words ("Command X failed."). */
    static List<String> failedCommands(String multimodeOutput) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^Command (\\S+) failed\\.\\s*$").matcher(multimodeOutput);
        List<String> failed = new ArrayList<>();
        while (m.find()) {
            failed.add(m.group(1));
        }
        return failed;
    }

    /** Until {@code asadmin uptime} succeeds on the admin port, or {@link #COMMANDS_READY} passes. */
    private void awaitCommands(String adminPort) throws IOException {
        long deadline = System.nanoTime() + COMMANDS_READY.toNanos();
        while (true) {
            try {
                asadmin("--port", adminPort, "uptime");
                return;
            } catch (IllegalStateException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(label + ": the admin port " + adminPort + " was open but served no"
                            + " command within " + COMMANDS_READY.toSeconds() + " s", notYet);
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(label + ": interrupted while waiting for the admin port", e);
                }
            }
        }
    }

    private static final java.time.Duration COMMANDS_READY = java.time.Duration.ofMinutes(2);

    /**
     * The template domain, created once per port base (a changed --http-port makes a new one); the JDBC
     * driver goes into its lib/ for the server-level pool. The marker is written last: a creation cut short
     * is redone.
     */
    private Path domainTemplate(int httpPort) throws IOException {
        Path dir = workDir.resolve("domain-template");
        Path marker = dir.resolve("port-base");
        String base = Integer.toString(PayaraServerNode.portBase(httpPort));
        String stamp = base + " v" + TEMPLATE_VERSION;
        if (Files.exists(marker) && Files.readString(marker).trim().equals(stamp)) {
            return dir;
        }
        FileTrees.delete(dir);
        Files.createDirectories(dir);
        LOG.info("{}: creating the template domain (port base {}), once", label, base);
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

    /**
     * The DAS's data grid (Hazelcast, on the port base + 49) listens on every interface by default, and its
     * asadmin command is refused before boot ("Command lookup failed"): the template's domain.xml gets the
     * addresses instead, the JVM -Dhazelcast.socket.bind.any=false (see {@link PayaraServerNode#command}).
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
        text += nl + RealmUser.postBootCommands(users, workDir)
                + "deploy --name " + AppServerNode.APPLICATION + " " + layout.ear() + nl
                + listenerCommands(layout.httpOpenTemplate()) + nl;
        Path out = workDir.resolve("post-boot.asadmin");
        OwnerOnly.write(out, text); // it holds the broker's and the database's passwords
        return out;
    }

    private String listenerCommands(Path template) throws IOException {
        return Templates.substitute(Files.readString(template), Map.of("HTTP_LISTENER", HTTP_LISTENER, "APPLICATION", AppServerNode.APPLICATION));
    }

    /** start-domain's command line, asked for once. */
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
                throw new IllegalStateException(label + ": asadmin " + String.join(" ", args) + " failed (exit " + p.exitValue()
                        + "):\n" + out);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(label + ": interrupted in asadmin " + args[0], e);
        }
        Files.createDirectories(logFile.getParent());
        Files.writeString(logFile, "asadmin " + String.join(" ", args) + System.lineSeparator() + out,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return out;
    }
}
