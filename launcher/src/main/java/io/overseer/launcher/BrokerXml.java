package io.overseer.launcher;

/**
 * Builds a node's broker.xml from server-config's templates: broker.xml as it is for one broker, and for a
 * node of a replicated pair broker.xml with ha-replication.xml (holding the role's ha-primary.xml or
 * ha-backup.xml) inserted into {@code <core>}. One configuration for both modes, nothing copied twice.
 */
final class BrokerXml {

    static final String CORE_END = "</core>";
    static final String ROLE_SLOT = "@HA_ROLE@";

    private BrokerXml() {
    }

    /**
     * {@code brokerXml} with {@code haFragment} (its {@value #ROLE_SLOT} replaced by {@code roleFragment})
     * just before the one {@code </core>}. Placeholders are left for {@link Templates#substitute}. Fails if
     * either template lacks its slot: a silently single broker where a pair was asked for would look fine
     * until the first failover.
     */
    static String withReplication(String brokerXml, String haFragment, String roleFragment) {
        int end = brokerXml.indexOf(CORE_END);
        if (end < 0 || brokerXml.indexOf(CORE_END, end + 1) >= 0) {
            throw new IllegalStateException("broker.xml must contain " + CORE_END + " exactly once to take the"
                    + " replication settings");
        }
        if (!haFragment.contains(ROLE_SLOT)) {
            throw new IllegalStateException("ha-replication.xml has no " + ROLE_SLOT + " for the node's role");
        }
        String ha = haFragment.replace(ROLE_SLOT, roleFragment.strip());
        return brokerXml.substring(0, end) + "\n" + ha.strip() + "\n\n   " + brokerXml.substring(end);
    }

    /**
     * {@code brokerXml} with a {@code <resource-limit-settings>} entry per user just before {@code </core>}:
     * the most queues each may hold at once (Artemis matches these by exact user name, without wildcards, so
     * they cannot live in the shared template). Clients create their reply and temporary queues; without a
     * cap one of them could create queues until the broker's memory or disk gives out.
     */
    static String withQueueLimits(String brokerXml, java.util.Map<String, Integer> maxQueuesByUser) {
        if (maxQueuesByUser.isEmpty()) {
            return brokerXml;
        }
        int end = brokerXml.indexOf(CORE_END);
        if (end < 0) {
            throw new IllegalStateException("broker.xml has no " + CORE_END + " to take the resource limits");
        }
        StringBuilder limits = new StringBuilder("<resource-limit-settings>\n");
        new java.util.TreeMap<>(maxQueuesByUser).forEach((user, max) -> {
            if (!user.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("a broker user name the launcher writes must match [A-Za-z0-9._-]+: " + user);
            }
            limits.append("         <resource-limit-setting match=\"").append(user).append("\">\n")
                    .append("            <max-queues>").append(max).append("</max-queues>\n")
                    .append("         </resource-limit-setting>\n");
        });
        limits.append("      </resource-limit-settings>");
        return brokerXml.substring(0, end) + "   " + limits + "\n   " + brokerXml.substring(end);
    }
}
