package io.overseer.launcher;

import io.overseer.launcher.lab.HostNetwork;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the stack's processes run, chosen once from the options ({@link #of}): all on this machine's loopback
 * ({@link #loopback()}, what ./run does), or each on a host of its own ({@link NamespaceHosts}: the lab's
 * {@link HostNetwork}, {@code --hosts namespaces}).
 */
public interface Hosts {

    /** The host the process named {@code name} (app1, broker, db1, sim, ...) runs on. */
    Host place(String name);

    /**
     * Makes the hosts ready, before the first node starts: on the loopback, where every instance listens on
     * {@code bindAddress}, their HTTP ports must be free; hosts of their own are made.
     */
    void open(List<AppInstance> instances, String bindAddress) throws IOException;

    /** Undoes {@link #open}, after every process on the hosts has stopped; safe twice. */
    void close();

    /** Who may connect, for servers that list their clients (PostgreSQL's pg_hba). */
    String clientNet();

    /** This machine's loopback for every process. */
    static Hosts loopback() {
        return Loopback.INSTANCE;
    }

    /**
     * The only place the hosts' mode is decided. Hosts of their own are the lab's: only this branch, taken for
     * {@code --hosts namespaces}, loads it. One host per instance, per broker node, per database host (and the
     * etcd witness), and the simulator.
     */
    static Hosts of(LauncherOptions options) {
        if (!options.ownHosts()) {
            return loopback();
        }
        List<String> names = new ArrayList<>();
        for (int k = 1; k <= options.instances(); k++) {
            names.add("app" + k);
        }
        names.add("broker");
        if (options.brokerHa()) {
            names.add("broker2");
        }
        names.addAll(List.of("db1", "db2", "witness", "sim"));
        try {
            return new NamespaceHosts(HostNetwork.plan(names));
        } catch (IOException e) {
            throw new IllegalStateException("cannot plan the hosts' network: " + e.getMessage(), e);
        }
    }

    /** Every process on {@link Host#LOOPBACK}. */
    enum Loopback implements Hosts {
        INSTANCE;

        @Override
        public Host place(String name) {
            return Host.LOOPBACK;
        }

        @Override
        public void open(List<AppInstance> instances, String bindAddress) {
            HttpPorts.requireFree(instances, bindAddress);
        }

        @Override
        public void close() {
            // nothing was made
        }

        @Override
        public String clientNet() {
            return "127.0.0.1/32";
        }
    }
}
