package io.overseer.launcher.lab;

import io.overseer.launcher.Node;
import io.overseer.launcher.NodeWatch;
import io.overseer.launcher.Wait;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicated PostgreSQL's hosts' service manager: every node that died (etcd member or Patroni) is
 * started again once it has been dead for the watch's delay, as a host that reboots. Called again while it
 * runs, {@link #watch} changes the delay of the running watch.
 */
final class ServiceManager {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceManager.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final List<Node> nodes;
    private final NodeWatch watch;
    private final Map<Node, Long> deadSince = new HashMap<>();
    private volatile int restarts;

    ServiceManager(List<Node> nodes, Duration delay) {
        this.nodes = List.copyOf(nodes);
        this.watch = new NodeWatch("overseer-postgres-ha", delay, Duration.ofSeconds(60));
    }

    void watch(Duration delay) {
        watch.start(delay, this::loop);
    }

    /** Ends the watch, waiting for a restart under way. */
    void stop() {
        watch.stop();
    }

    /** Nodes started again. */
    int restarts() {
        return restarts;
    }

    private void loop() {
        while (watch.running()) {
            try {
                for (Node n : nodes) {
                    reviveIfDead(n);
                }
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (!watch.running()) {
                    return;
                }
                LOG.error("Restarting a database node failed: {}", e.toString());
                Wait.sleep(2000);
            }
        }
    }

    private void reviveIfDead(Node n) throws Exception {
        if (n.isAlive()) {
            deadSince.remove(n);
            return;
        }
        long since = deadSince.computeIfAbsent(n, k -> System.nanoTime());
        if (System.nanoTime() - since < watch.delay().toNanos() || !watch.running()) {
            return;
        }
        LOG.warn("{} died; starting it again (a Patroni node rejoins as a standby, rewound if it had diverged)", n.name());
        n.kill9(); // whatever of it is left (a postmaster Patroni had detached) must not hold its directory
        n.start();
        deadSince.remove(n);
        restarts++;
    }
}
