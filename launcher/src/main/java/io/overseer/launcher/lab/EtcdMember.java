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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of the etcd cluster in which Patroni keeps the leader lock of the replicated PostgreSQL
 * ({@link PostgresHa}): Debian's {@code etcd-server}. Three members, so that the lock outlives any one of
 * them, and a primary cut from the majority loses it (and demotes itself) while the other side elects.
 *
 * <p>A member's start only launches it: a member is healthy only once a majority has formed, so
 * {@link PostgresHa} launches all of them and then waits ({@link #awaitHealthy}).
 */
public final class EtcdMember extends ProcessNode {

    private static final Logger LOG = LoggerFactory.getLogger(EtcdMember.class);
    static final String TOKEN = "overseer-db-ha";

    private final String memberName;
    private final int clientPort;
    private final int peerPort;
    private final Path dataDir;
    private final String initialCluster;

    /** {@code initialCluster}: every member as {@code name=http://host:peerPort}, comma-separated. */
    EtcdMember(String memberName, Host host, int clientPort, int peerPort, Path dataDir, Path logFile,
               String initialCluster) {
        super(logFile, Duration.ofSeconds(10));
        this.memberName = memberName;
        placeOn(host);
        this.clientPort = clientPort;
        this.peerPort = peerPort;
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.initialCluster = initialCluster;
    }

    @Override
    public String name() {
        return memberName;
    }

    @Override
    public String label() {
        return "etcd " + memberName;
    }

    /** Launched only: {@link #awaitHealthy} waits for it, with the other members running. */
    @Override
    protected String awaitReady(ManagedProcess process, long logStart) {
        return "launched";
    }

    /** Until the member answers healthy, which needs a leader, hence a majority of the members running. */
    void awaitHealthy(Duration timeout) {
        long t0 = System.nanoTime();
        ManagedProcess p = process();
        Wait.until(label(), timeout, this::healthy, () -> p != null && p.isAlive(), () -> p == null ? "" : p.tail(30));
        LOG.info("{} healthy at {} (pid {}) in {} ms", label(), clientUrl(), p.pid(), millisSince(t0));
    }

    /** Whether it answers {@code /health} with a leader elected. */
    boolean healthy() {
        return Wait.httpOkContaining(clientUrl() + "/health", "\"health\":\"true\"");
    }

    @Override
    protected ManagedProcess launch() throws IOException {
        StaleProcesses.stopUsing(dataDir.toString(), "TERM", label());
        OwnerOnly.directory(dataDir);
        String peer = "http://" + address() + ":" + peerPort;
        // "new" is read only while the data directory is empty: a restarted member rejoins from its own.
        List<String> cmd = List.of(DebianPrograms.ETCD.toString(),
                "--name", memberName,
                "--data-dir", dataDir.toString(),
                "--listen-client-urls", clientUrl(),
                "--advertise-client-urls", clientUrl(),
                "--listen-peer-urls", peer,
                "--initial-advertise-peer-urls", peer,
                "--initial-cluster", initialCluster,
                "--initial-cluster-token", TOKEN,
                "--initial-cluster-state", "new",
                // A member cut off keeps raising its term; without pre-vote, when it rejoins it forces an
                // election and the cluster stops answering for a moment (seen in ./chaos --partitions: the
                // primary's Patroni could not renew its lock, and the rejoined host took it). etcd 3.5's default.
                "--pre-vote",
                // Small and quick on one machine: a 100 ms heartbeat, a leader lost after 1 s.
                "--heartbeat-interval", "100",
                "--election-timeout", "1000",
                "--quota-backend-bytes", Long.toString(256L * 1024 * 1024),
                "--auto-compaction-retention", "1");
        return startProcess(cmd, dataDir, Map.of());
    }

    String clientUrl() {
        return "http://" + address() + ":" + clientPort;
    }

    /** {@code host:clientPort}, as Patroni's etcd3 section lists its hosts. */
    String clientAddress() {
        return address() + ":" + clientPort;
    }

    String address() {
        return host().address();
    }
}
