package io.overseer.launcher;

import io.overseer.launcher.lab.HostNetwork;
import java.io.IOException;
import java.util.List;

/**
 * {@code --hosts namespaces}: every process on a host of its own, the lab's {@link HostNetwork}. The lab knows
 * nothing of {@link Hosts}; this adapter is the one place the launcher's side meets it, so the two packages do
 * not import each other in a loop.
 */
record NamespaceHosts(HostNetwork network) implements Hosts {

    /** Earlier runs' leftovers removed, then the network made. */
    @Override
    public void open(List<AppInstance> instances, String bindAddress) throws IOException {
        HostNetwork.removeLeftovers();
        network.open();
    }

    @Override
    public Host place(String name) {
        return network.host(name);
    }

    @Override
    public String clientNet() {
        return network.cidr();
    }

    @Override
    public void close() {
        network.close();
    }
}
