package io.overseer.launcher;

import java.util.List;

/**
 * Where a node runs: this machine's loopback ({@link #LOOPBACK}, what ./run uses), or a host of its own — a
 * network namespace with its own address on a virtual link (the lab's {@code HostNetwork}), as close to a machine of
 * its own as one machine allows. A node listens on its host's address and is reached there; its process is
 * started inside the host's namespace.
 */
public record Host(String name, String namespace, String address) {

    public static final Host LOOPBACK = new Host("loopback", null, "127.0.0.1");
    /** The program that makes and enters the namespaces. */
    public static final String IP = "/usr/sbin/ip";

    /** The command prefix that runs a program on this host (nothing for the loopback). */
    public List<String> commandPrefix() {
        return namespace == null ? List.of() : List.of(IP, "netns", "exec", namespace);
    }

    public boolean isLoopback() {
        return namespace == null;
    }
}
