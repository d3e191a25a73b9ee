package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Payara Micro running the Overseer WAR at context root "/". Resources (adapter, connection factory,
 * datasource) come from server-config's post-boot command file, filled in here; the .rar is deployed by
 * that file so it exists before the WAR's MDBs activate. No --rootdir: a reused one redeploys on start.
 */
public final class PayaraMicroNode extends AppServerNode {

    /** The HTTP listener (and its protocol) of Payara Micro's domain. */
    public static final String HTTP_LISTENER = "http-listener";

    private static final Logger LOG = LoggerFactory.getLogger(PayaraMicroNode.class);

    /** {@code workDir} holds the generated post-boot file and Payara's temp directory (wiped at start). */
    public PayaraMicroNode(StackLayout layout, Path workDir, Path logFile, AppServerConfig config) {
        this(layout, DEFAULT_NAME, workDir, logFile, config);
    }

    /** One of several instances, told apart by {@code name} in the launcher's log (see {@link AppInstance}). */
    public PayaraMicroNode(StackLayout layout, String name, Path workDir, Path logFile, AppServerConfig config) {
        super(AppRuntime.PAYARA_MICRO, layout, name, workDir, logFile, config);
    }

    @Override
    protected ManagedProcess launch(AppServerConfig config, List<RealmUser> users) throws IOException {
        StaleProcesses.stopUsing(workDir.toString(), "TERM", label());
        Path tmp = workDir.resolve("tmp");
        FileTrees.delete(tmp); // runtime dirs of a killed instance would pile up otherwise
        Files.createDirectories(tmp);
        Path postBoot = writePostBoot(config, users);
        // The port opens only once the WAR is deployed: before that, Payara's readiness says UP with no checks.
        Path httpClosed = writeListenerCommands(layout.httpClosedTemplate(), "http-closed.asadmin");
        Path httpOpen = writeListenerCommands(layout.httpOpenTemplate(), "http-open.asadmin");

        List<String> cmd = command(config, tmp, postBoot, httpClosed, httpOpen);
        // glibc gives each of the server's ~300 threads' allocations arenas of their own (up to 8 per
        // core), which holds memory the JVM no longer uses: two keep the resident size near what the
        // JVM itself accounts for (the RSS target of BENCHMARKS.md).
        return startProcess(cmd, workDir, Map.of("MALLOC_ARENA_MAX", "2"));
    }

    /** The Payara Micro command line; package-private for tests. */
    List<String> command(AppServerConfig c, Path tmp, Path postBoot, Path httpClosed, Path httpOpen) {
        List<String> cmd = new ArrayList<>(List.of(Java.executable(), "-Xmx" + c.maxHeap()));
        cmd.addAll(c.jit().jvmOptions());
        cmd.add("-Djava.io.tmpdir=" + tmp);
        if (c.remoteServiceUrl() != null) {
            cmd.add("-Doverseer.remote-service.url=" + c.remoteServiceUrl());
        }
        c.appProperties().forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-jar", layout.payaraMicroJar().toString(),
                // No data grid: nothing here uses it (every timer is non-persistent, no session is replicated),
                // and it listened, unauthenticated, on the machine's own address for the first seconds of
                // every start, until a post-boot command moved it to loopback (and restarted it: ~4 s of work
                // per start in the log's timestamps, ~1 s less time to ready on average in a CI trial).
                // Not with --nocluster: Payara Micro then ignores --nohazelcast and starts the grid anyway.
                "--nohazelcast",
                "--port", Integer.toString(c.httpPort()),
                "--addlibs", layout.postgresqlJar().toString(),
                "--prebootcommandfile", httpClosed.toString(),
                "--postbootcommandfile", postBoot.toString(),
                "--postdeploycommandfile", httpOpen.toString(),
                "--deploy", layout.war().toString(),
                "--contextroot", "/"));
        return cmd;
    }

    /** Fills in the post-boot template for the current settings; package-private for tests. */
    Path writePostBoot() throws IOException {
        return writePostBoot(config(), realmUsers());
    }

    private Path writePostBoot(AppServerConfig config, List<RealmUser> users) throws IOException {
        Path template = layout.postBootTemplate();
        Map<String, String> values = new HashMap<>(config.postBootValues(layout.rar().toString()));
        values.put("HTTP_LISTENER", HTTP_LISTENER);
        String text = Templates.substitute(Files.readString(template), values);
        Set<String> left = Templates.unresolved(text);
        if (!left.isEmpty()) {
            LOG.warn("post-boot.asadmin template has placeholders the launcher does not know: {}", left);
        }
        Path out = workDir.resolve("post-boot.asadmin");
        // Payara Micro keeps its transaction log in its temporary instance root, lost at every start. Kept
        // here instead, a restarted server recovers in-doubt JMS branches a kill -9 left in the broker.
        Path txLog = Files.createDirectories(workDir.resolve("tx-log"));
        text += System.lineSeparator() + "set configs.config.server-config.transaction-service.tx-log-dir="
                + Templates.asadminEscape(txLog.toString()) + System.lineSeparator();
        // The HTTP listener's address, when one is given (./run gives 127.0.0.1 unless --bind-address).
        if (config.bindAddress() != null) {
            text += "set configs.config.server-config.network-config.network-listeners.network-listener"
                    + ".http-listener.address=" + config.bindAddress() + System.lineSeparator();
        }
        // The web container's availability (sessions and single sign-on kept in the data grid) is off: the
        // grid does not run here (--nohazelcast), and with it on every authenticated request failed
        // ("Hazelcast is not enabled", from the single sign-on's registry). The API is stateless anyway.
        text += "set configs.config.server-config.availability-service.web-container-availability"
                + ".availability-enabled=false" + System.lineSeparator();
        text += RealmUser.postBootCommands(users, workDir);
        OwnerOnly.write(out, text); // it holds the broker's and the database's passwords
        return out;
    }

    private Path writeListenerCommands(Path template, String name) throws IOException {
        Path out = workDir.resolve(name);
        Files.writeString(out, Templates.substitute(Files.readString(template),
                Map.of("HTTP_LISTENER", HTTP_LISTENER, "APPLICATION", APPLICATION)));
        return out;
    }

    /**
     * The HTTP port opens only after a deployment that succeeded (http-open.asadmin runs as post-deploy
     * commands and opens it only once the application exists), so after a failed one it stays closed and
     * the log says why: the post-deploy `set` found no application. An answer without the application's
     * checks means the same (a deployed application's checks are in its first readiness answer, HealthIT):
     * a port opened by a file without that condition.
     */
    @Override
    protected boolean applicationFailedToDeploy(Wait.Answer readiness, Supplier<String> log) {
        if (readiness != null) {
            return !readiness.body().contains(APPLICATION_CHECK);
        }
        return log.get().contains(NOT_DEPLOYED);
    }
}
