package io.overseer.launcher;

import java.util.Locale;

/**
 * A node's part in a replicated Artemis pair: its role, its peer's port (both on 127.0.0.1), and the login
 * the two nodes use with each other (made up at every start, like the application's).
 */
public record BrokerHa(Role role, int peerPort, String clusterUser, String clusterPassword) {

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
