package io.overseer.launcher.lab;

import io.overseer.launcher.Host;
import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts of their own on this one machine, for the chaos runner and the system tests: each host a network
 * namespace with one virtual link (a veth pair) to a bridge in this machine's namespace, and an address of
 * its own in a private /24 (10.213.N.0/24) that exists only here: the bridge is linked to no physical
 * interface and nothing forwards into it. This namespace holds the bridge's address (.1), so the runner and
 * the tests reach every host, and the hosts reach each other over the bridge.
 *
 * <p>Faults a network has, without containers and without {@code tc netem} (this kernel has none):
 * {@link #isolate} takes a host's link down (cut from everyone, this machine included), {@link #cut} puts
 * blackhole routes between two hosts in both namespaces (each still reaches the rest); both are undone by
 * {@link #rejoin} and {@link #heal}. {@link #close} removes every namespace and the bridge.
 *
 * <p>Needs root ({@code ip netns}). A run's names carry an id of its own, so that two runs never share a
 * bridge, and {@link #removeLeftovers} clears what a killed run left.
 */
public final class HostNetwork implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HostNetwork.class);
    static final String IP = Host.IP;
    /** Every namespace this class makes starts with this, then the run's id. */
    static final String PREFIX = "ovs";

    private final String id;
    private final int subnet;
    private final String bridge;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private boolean closed;

    private HostNetwork(String id, int subnet) {
        this.id = id;
        this.subnet = subnet;
        this.bridge = PREFIX + id + "br";
    }

    /**
     * The network for hosts named {@code names} (1-8 lower-case letters or digits each), in a /24 nobody on
     * this machine routes yet: the addresses are known now, nothing exists until {@link #open}.
     */
    public static HostNetwork plan(List<String> names) throws IOException {
        if (new UnixSystem().getUid() != 0) {
            throw new IllegalStateException("hosts of their own are network namespaces, which only root may make (ip netns)");
        }
        String routes = run(List.of(IP, "-4", "route", "show"), true);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 50; attempt++) {
            int subnet = 1 + random.nextInt(250);
            if (routes.contains("10.213." + subnet + ".")) {
                continue;
            }
            HostNetwork network = new HostNetwork(Integer.toHexString(0x1000 + random.nextInt(0xefff)), subnet);
            for (String name : names) {
                if (!name.matches("[a-z0-9]{1,8}") || network.hosts.containsKey(name)) {
                    throw new IllegalArgumentException("a host's name is 1-8 lower-case letters or digits, once: " + name);
                }
                int number = 10 + network.hosts.size();
                network.hosts.put(name, new Host(name, PREFIX + network.id + "-" + name, network.prefix() + "." + number));
            }
            return network;
        }
        throw new IllegalStateException("no free 10.213.N.0/24 for the hosts' network");
    }

    /** Makes the bridge and every host's namespace and link; {@link #close} undoes it, also after a failure here. */
    public synchronized void open() throws IOException {
        run(List.of(IP, "link", "add", bridge, "type", "bridge"), false);
        run(List.of(IP, "addr", "add", gateway() + "/24", "dev", bridge), false);
        run(List.of(IP, "link", "set", bridge, "up"), false);
        for (Host host : hosts.values()) {
            String outside = veth(host);
            run(List.of(IP, "netns", "add", host.namespace()), false);
            run(List.of(IP, "link", "add", outside, "type", "veth", "peer", "name", outside + "i"), false);
            run(List.of(IP, "link", "set", outside + "i", "netns", host.namespace()), false);
            run(List.of(IP, "link", "set", outside, "master", bridge), false);
            run(List.of(IP, "link", "set", outside, "up"), false);
            inside(host, List.of("link", "set", "lo", "up"));
            inside(host, List.of("link", "set", outside + "i", "name", "eth0"));
            inside(host, List.of("addr", "add", host.address() + "/24", "dev", "eth0"));
            inside(host, List.of("link", "set", "eth0", "up"));
        }
        LOG.info("Hosts' network {} on {} ({}.0/24): {}", id, bridge, prefix(), hosts.values().stream()
                .map(h -> h.name() + " " + h.address()).toList());
    }

    /** The host of this name. */
    public synchronized Host host(String name) {
        Host host = hosts.get(name);
        if (host == null) {
            throw new IllegalArgumentException("no host " + name + " in " + hosts.keySet());
        }
        return host;
    }

    /** Cuts the host off from everyone (its link down): what it had in flight hangs, nothing is refused. */
    public void isolate(Host host) throws IOException {
        run(List.of(IP, "link", "set", veth(host), "down"), false);
        LOG.info("Host {} isolated", host.name());
    }

    public void rejoin(Host host) throws IOException {
        run(List.of(IP, "link", "set", veth(host), "up"), false);
        LOG.info("Host {} rejoined", host.name());
    }

    /** Cuts the link between two hosts both ways (blackhole routes in each); each still reaches the others. */
    public synchronized void cut(Host a, Host b) throws IOException {
        inside(a, List.of("route", "add", "blackhole", b.address() + "/32"));
        inside(b, List.of("route", "add", "blackhole", a.address() + "/32"));
        LOG.info("Hosts {} and {} cut from each other", a.name(), b.name());
    }

    public synchronized void heal(Host a, Host b) throws IOException {
        inside(a, List.of("route", "del", "blackhole", b.address() + "/32"));
        inside(b, List.of("route", "del", "blackhole", a.address() + "/32"));
        LOG.info("Hosts {} and {} reach each other again", a.name(), b.name());
    }

    /** The address the hosts reach this machine's namespace at (the bridge's). */
    public String gateway() {
        return prefix() + ".1";
    }

    /** Who may connect, for servers that list their clients (PostgreSQL's pg_hba): the whole network. */
    public String cidr() {
        return prefix() + ".0/24";
    }

    public String id() {
        return id;
    }

    /** Every namespace (and its link) and the bridge; safe twice. Processes still inside are not killed here. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Host host : hosts.values()) {
            try {
                // The link first, both ends at once: a namespace's deletion frees its end later, in the background.
                run(List.of(IP, "link", "delete", veth(host)), true);
                run(List.of(IP, "netns", "delete", host.namespace()), true);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Removing namespace {} failed: {}", host.namespace(), e.getMessage());
            }
        }
        try {
            run(List.of(IP, "link", "delete", bridge), true);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Removing bridge {} failed: {}", bridge, e.getMessage());
        }
        LOG.info("Hosts' network {} removed", id);
    }

    /** Namespaces and bridges of earlier runs (this class's prefix) whose processes are all gone. */
    public static void removeLeftovers() {
        try {
            for (String line : run(List.of(IP, "netns", "list"), true).split("\n")) {
                String ns = line.trim().split("\\s+")[0];
                if (ns.startsWith(PREFIX) && ns.contains("-") && run(List.of(IP, "netns", "pids", ns), true).isBlank()) {
                    run(List.of(IP, "netns", "delete", ns), true);
                    LOG.info("Removed namespace {} left by an earlier run", ns);
                }
            }
            for (String line : run(List.of(IP, "-o", "link", "show", "type", "bridge"), true).split("\n")) {
                String[] parts = line.split(":\\s+");
                if (parts.length > 1 && parts[1].startsWith(PREFIX) && parts[1].endsWith("br")) {
                    run(List.of(IP, "link", "delete", parts[1]), true);
                    LOG.info("Removed bridge {} left by an earlier run", parts[1]);
                }
            }
        } catch (IOException e) {
            LOG.warn("Looking for leftover namespaces failed: {}", e.getMessage());
        }
    }

    private String prefix() {
        return "10.213." + subnet;
    }

    /** The host's end of its link in this namespace: at most 15 characters, as Linux requires. */
    private String veth(Host host) {
        return PREFIX + id + host.address().substring(host.address().lastIndexOf('.') + 1);
    }

    private static void inside(Host host, List<String> ipArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(IP, "netns", "exec", host.namespace(), IP));
        cmd.addAll(ipArgs);
        run(cmd, false);
    }

    /** Runs {@code ip ...}, returning its output; a failure throws with what it said unless {@code quiet}. */
    private static String run(List<String> cmd, boolean quiet) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            int exit = p.waitFor();
            if (exit != 0 && !quiet) {
                throw new IOException(String.join(" ", cmd) + " failed (exit " + exit + "): " + out.trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        return out;
    }
}
