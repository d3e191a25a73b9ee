package io.overseer.chaos;

import io.overseer.launcher.Host;
import io.overseer.launcher.lab.HostNetwork;
import io.overseer.launcher.lab.PatroniNode;
import io.overseer.launcher.lab.PostgresHa;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The network's faults of {@code --partitions}, on the hosts of their own the launcher placed every process
 * on ({@link HostNetwork}, docs/network-faults.md): links cut (blackhole routes both ways) or a host's link
 * down, each healed after the fault's hold, whatever happens meanwhile. Hosts are named as the launcher names
 * them: app1…appN, broker, broker2, db1, db2, witness, sim.
 */
final class NetworkFaults {

    private final ChaosStack stack;

    NetworkFaults(ChaosStack stack) {
        this.stack = stack;
    }

    /** app-db-cut: the instance and both database hosts lose each other; the etcd witness is not its business. */
    String cutInstanceFromDatabase(PlannedFault f) throws IOException, InterruptedException {
        return cutFor(f, app(f), List.of(host("db1"), host("db2")), "both database hosts");
    }

    /** app-broker-cut: the instance and the broker (both nodes of a pair) lose each other. */
    String cutInstanceFromBroker(PlannedFault f) throws IOException, InterruptedException {
        List<Host> brokers = stack.brokerHa() ? List.of(host("broker"), host("broker2")) : List.of(host("broker"));
        return cutFor(f, app(f), brokers, stack.brokerHa() ? "both broker nodes" : "the broker");
    }

    /** app-isolated: the instance's link down, the runner's view of it included. */
    String isolateInstance(PlannedFault f) throws IOException, InterruptedException {
        Host app = app(f);
        HostNetwork network = network();
        network.isolate(app);
        try {
            Thread.sleep(f.hold().toMillis());
        } finally {
            network.rejoin(app);
        }
        return app.name() + " isolated for " + f.hold().toMillis() + " ms";
    }

    /** broker-pair-cut: the replicated broker's nodes lose each other (needs --broker-ha). */
    String cutBrokerPair(PlannedFault f) throws IOException, InterruptedException {
        if (!stack.brokerHa()) {
            throw new IllegalStateException("broker-pair-cut needs --broker-ha: a single broker has no peer");
        }
        return cutFor(f, host("broker"), List.of(host("broker2")), "broker2");
    }

    /**
     * db-primary-isolated: the primary database host's link down for the fault's hold (longer than Patroni's
     * ttl). Cut from the etcd majority it cannot renew its leader lock and demotes itself; the standby is
     * promoted. Healed, it rejoins as the standby, rewound. Lasts until the cluster is settled again.
     */
    String isolateDatabasePrimary(PlannedFault f) throws IOException, InterruptedException {
        PostgresHa db = stack.postgresHa();
        DatabaseFaults.awaitSettled(db, "before the fault");
        PatroniNode old = db.primary().orElseThrow(() -> new IllegalStateException("no primary before the fault"));
        HostNetwork network = network();
        long t = System.nanoTime();
        network.isolate(old.host());
        Optional<PatroniNode> promoted;
        long failoverMs;
        try {
            promoted = DatabaseFaults.awaitWritable(db, n -> n != old, t + f.hold().toNanos());
            failoverMs = (System.nanoTime() - t) / 1_000_000;
            long left = f.hold().toMillis() - failoverMs;
            if (left > 0) {
                Thread.sleep(left);
            }
        } finally {
            network.rejoin(old.host());
        }
        long healedMs = (System.nanoTime() - t) / 1_000_000;
        try {
            DatabaseFaults.awaitSettled(db, "after the fault");
        } catch (IllegalStateException e) {
            throw new IllegalStateException("primary " + old.name() + " was isolated for " + healedMs + " ms, but "
                    + e.getMessage(), e);
        }
        long settledMs = (System.nanoTime() - t) / 1_000_000;
        return "primary " + old.name() + " isolated for " + healedMs + " ms; " + promoted.map(n -> n.name()
                + " primary after " + failoverMs + " ms").orElse("NO other primary while it was away")
                + "; settled again " + settledMs + " ms after the cut (primary now "
                + db.primary().map(PatroniNode::name).orElse("none") + ")";
    }

    private String cutFor(PlannedFault f, Host from, List<Host> others, String what)
            throws IOException, InterruptedException {
        HostNetwork network = network();
        for (Host other : others) {
            network.cut(from, other);
        }
        try {
            Thread.sleep(f.hold().toMillis());
        } finally {
            for (Host other : others) {
                network.heal(from, other);
            }
        }
        return from.name() + " cut from " + what + " for " + f.hold().toMillis() + " ms";
    }

    private Host app(PlannedFault f) {
        return host("app" + (f.instance() % stack.instances().size() + 1));
    }

    private Host host(String name) {
        return network().host(name);
    }

    private HostNetwork network() {
        if (!stack.partitions()) {
            // ChaosOptions refuses these kinds without --partitions; a plan built another way must not pretend.
            throw new IllegalStateException("the network's faults need --partitions: on one loopback there is no link to cut");
        }
        return stack.network();
    }
}
