package io.overseer.launcher.lab;

import io.overseer.launcher.Host;
import io.overseer.launcher.LogTail;
import io.overseer.launcher.ManagedProcess;
import io.overseer.launcher.OwnerOnly;
import io.overseer.launcher.PostgresNode;
import io.overseer.launcher.ProcessNode;
import io.overseer.launcher.StaleProcesses;
import io.overseer.launcher.Templates;
import io.overseer.launcher.Wait;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One database host of the replicated PostgreSQL ({@link PostgresHa}): Patroni (Debian's package), which
 * runs and watches this host's PostgreSQL, holds or follows the leader lock in etcd, and promotes or
 * demotes it. Its configuration is server-config's {@code postgres-ha/patroni.yml}, filled in here.
 *
 * <p>Patroni starts the postmaster detached (it is re-parented, not Patroni's descendant), so a crash of
 * this node — {@link #kill9()}, "the host dies" — also kills the postmaster named in its
 * {@code postmaster.pid}, and its backends: killing Patroni alone would leave a primary running without
 * anyone to demote it. PostgreSQL refuses to run as root: as root, Patroni runs as Debian's {@code postgres}
 * user ({@link HostUser}).
 */
public final class PatroniNode extends ProcessNode {

    private static final Logger LOG = LoggerFactory.getLogger(PatroniNode.class);

    private final String nodeName;
    private final int pgPort;
    private final int restPort;
    private final Path nodeDir;
    private final Path template;
    private final ClusterValues values;
    private final HostUser user;

    /** The template's cluster-wide placeholders (etcd hosts, passwords, client network, binaries), read at each launch. */
    @FunctionalInterface
    interface ClusterValues {
        Map<String, String> get() throws IOException;
    }

    PatroniNode(String nodeName, Host host, int pgPort, int restPort, Path nodeDir, Path logFile, Path template,
                ClusterValues values, HostUser user) {
        super(logFile, Duration.ofSeconds(30));
        this.nodeName = nodeName;
        placeOn(host);
        this.pgPort = pgPort;
        this.restPort = restPort;
        this.nodeDir = nodeDir.toAbsolutePath().normalize();
        this.template = template;
        this.values = values;
        this.user = user;
    }

    @Override
    public String name() {
        return nodeName;
    }

    @Override
    public String label() {
        return "Patroni " + nodeName;
    }

    /** Launched only: whoever starts the cluster waits for the role it needs ({@link #awaitPrimary}, {@link #awaitSynchronous}). */
    @Override
    protected String awaitReady(ManagedProcess process, long logStart) {
        return "launched";
    }

    /** Until this node is the primary holding the leader lock. */
    void awaitPrimary(Duration timeout) {
        awaitRest("/primary", timeout, "the primary");
    }

    /** Until this node is the synchronous standby: a commit on the primary waits for it. */
    void awaitSynchronous(Duration timeout) {
        awaitRest("/sync", timeout, "the synchronous standby");
    }

    private void awaitRest(String path, Duration timeout, String what) {
        long t0 = System.nanoTime();
        ManagedProcess p = process();
        Wait.until(label() + " to be " + what, timeout, () -> Wait.httpStatus(restUrl() + path) == 200,
                () -> p != null && p.isAlive(), () -> (p == null ? "" : p.tail(40)) + postgresLogTail());
        LOG.info("{} is {} ({}:{}) after {} ms", label(), what, address(), pgPort, millisSince(t0));
    }

    /** Whether Patroni says this node is the primary now (its REST API answers 200 on /primary). */
    public boolean isPrimary() {
        return isAlive() && Wait.httpStatus(restUrl() + "/primary") == 200;
    }

    /** Whether this node is the synchronous standby now. */
    public boolean isSynchronousStandby() {
        return isAlive() && Wait.httpStatus(restUrl() + "/sync") == 200;
    }

    @Override
    protected ManagedProcess launch() throws IOException {
        // A postmaster left by a crashed launcher (or a crash of this node) would hold the data directory.
        StaleProcesses.stopUsing(nodeDir.toString(), "INT", label());
        user.ownedDirectory(nodeDir);
        user.ownedDirectory(nodeDir.resolve("log"));
        Path config = nodeDir.resolve("patroni.yml");
        Map<String, String> all = new java.util.HashMap<>(values.get());
        all.put("NAME", nodeName);
        all.put("HOST", address());
        all.put("PG_PORT", Integer.toString(pgPort));
        all.put("REST_PORT", Integer.toString(restPort));
        all.put("NODE_DIR", nodeDir.toString());
        String yaml = Templates.substitute(Files.readString(template), all);
        if (!Templates.unresolved(yaml).isEmpty()) {
            throw new IllegalStateException(template + " has placeholders the launcher does not fill: "
                    + Templates.unresolved(yaml));
        }
        OwnerOnly.write(config, yaml); // it holds the cluster's passwords
        user.own(config);
        List<String> cmd = new ArrayList<>(user.command());
        // A clean environment: a PGPASSWORD or PGUSER of the launcher's would reach pg_basebackup and pg_rewind
        // and override the replication user's password (replication then fails, "password authentication failed").
        cmd.addAll(List.of("/usr/bin/env", "-i", "HOME=" + user.home(), "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                DebianPrograms.PATRONI.toString(), config.toString()));
        return startProcess(cmd, nodeDir, Map.of());
    }

    /** After Patroni has gone (stopped or killed), the postmaster it had detached goes too. */
    @Override
    protected void afterProcessEnded(boolean crash) {
        long postmaster = postmasterPid();
        ProcessHandle.of(postmaster).filter(ProcessHandle::isAlive).ifPresent(h -> {
            if (crash) {
                ManagedProcess.kill9(h);
            } else {
                LOG.warn("{}: PostgreSQL (pid {}) outlived Patroni's stop; stopping it", label(), postmaster);
                ManagedProcess.terminate(h, Duration.ofSeconds(20), label() + " PostgreSQL");
            }
        });
    }

    /** The postmaster's pid from its {@code postmaster.pid}, or -1. */
    public long postmasterPid() {
        return PostgresNode.postmasterPid(nodeDir.resolve("data"));
    }

    private String postgresLogTail() {
        Path log = nodeDir.resolve("log/postgresql.log");
        return Files.exists(log) ? "\n--- " + log + ":\n" + LogTail.lastLines(log, 20) : "";
    }

    /** The host's address, where PostgreSQL and the REST API listen. */
    public String address() {
        return host().address();
    }

    public int pgPort() {
        return pgPort;
    }

    public int restPort() {
        return restPort;
    }

    /** Patroni's REST API: http://host:port, no trailing slash. */
    public String restUrl() {
        return "http://" + address() + ":" + restPort;
    }

    public Path nodeDir() {
        return nodeDir;
    }
}
