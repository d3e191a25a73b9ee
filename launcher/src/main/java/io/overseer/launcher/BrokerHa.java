package io.overseer.launcher;

import java.util.Locale;

/**
 * A node's part in a replicated Artemis pair: its role, its peer's address and port (127.0.0.1 unless the
 * nodes run on hosts of their own), and the login the two nodes use with each other (made up at every
 * start, like the application's).
 */
public record BrokerHa(Role role, String peerHost, int peerPort, String clusterUser, String clusterPassword) {

    /** The peer on this machine's loopback, as ./run --broker-ha runs the pair. */
    public BrokerHa(Role role, int peerPort, String clusterUser, String clusterPassword) {
        this(role, "127.0.0.1", peerPort, clusterUser, clusterPassword);
    }

    public enum Role {
        PRIMARY, BACKUP;

        /** "primary" or "backup": how logs, node names and server-config's ha-ROLE.xml name it. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public BrokerHa {
        if (role == null || clusterUser == null || clusterPassword == null) {
            throw new IllegalArgumentException("a pair's node needs its role and the cluster login");
        }
    }
}
