package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Payara Server 6 running the Overseer EAR (the ear module's artifact, unchanged) in a domain of its own
 * under the work directory. Every start is a fresh domain, as Payara Micro's is: a copy of a template
 * domain made once by {@code create-domain} (which takes ≈ 20 s here), so nothing of the last run is
 * redeployed before the listener-closing commands run. The domain's files and the asadmin runs are
 * {@link PayaraDomain}'s; this class runs the server and sees it ready.
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

    private final PayaraDomain domain;

    public PayaraServerNode(StackLayout layout, String name, Path workDir, Path logFile, AppServerConfig config) {
        super(AppRuntime.PAYARA_SERVER, layout, name, workDir, logFile, config);
        this.domain = new PayaraDomain(layout, this.workDir, label(), logFile());
    }

    /** This node's domain files (package-private for tests). */
    PayaraDomain domain() {
        return domain;
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
        List<String> cmd = command(config, domain.prepare(config, users));
        // As for Payara Micro: two malloc arenas keep the resident size near what the JVM accounts for.
        return startProcess(cmd, workDir, Map.of("MALLOC_ARENA_MAX", "2"));
    }

    /** Resources, users, the EAR and the open listener, through the admin port once it answers. */
    @Override
    protected void configure(ManagedProcess process) throws IOException {
        int admin = domainPorts(config().httpPort()).get("admin");
        long t0 = System.nanoTime();
        Wait.until(label() + " admin port", READY_TIMEOUT, () -> Wait.portOpen("127.0.0.1", admin), process::isAlive,
                () -> process.tail(60));
        domain.runPostBoot(admin);
        LOG.info("{}: configured and deployed in {} ms after its admin port opened", label(), millisSince(t0));
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
            args |= a.equals(PayaraDomain.MAIN_CLASS);
            if (args) {
                main.add(a);
            } else if (!a.startsWith("-Xmx")) {
                jvm.add(a);
            }
        }
        jvm.add("-Xmx" + c.maxHeap());
        jvm.addAll(c.jit().jvmOptions());
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
}
