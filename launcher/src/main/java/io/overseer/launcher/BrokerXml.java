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

    static final String SECURITY_END = "</security-settings>";

    /**
     * {@code brokerXml} with what each client user gets on its own, which Artemis cannot express once for
     * all users (it matches resource limits by exact user name, and has no user placeholder in a security
     * match):
     * <ul>
     * <li>a {@code <resource-limit-settings>} entry just before {@code </core>}: the most queues the user may
     * hold at once. Clients create their reply and temporary queues; without a cap one of them could create
     * queues until the broker's memory or disk gives out;</li>
     * <li>a {@code <security-setting>} for its reply queues, {@code overseer.reply.<user>.#}, just before
     * {@code </security-settings>}: the user (through its role {@link BrokerUser#replyOwnerRole}) and
     * operators may read them; the application sends. Everyone else's reply queues stay closed to it
     * (the template's {@code overseer.reply.#}).</li>
     * </ul>
     */
    static String withClients(String brokerXml, java.util.Map<String, Integer> maxQueuesByUser) {
        if (maxQueuesByUser.isEmpty()) {
            return brokerXml;
        }
        int securityEnd = brokerXml.indexOf(SECURITY_END);
        int end = brokerXml.indexOf(CORE_END);
        if (end < 0 || securityEnd < 0 || securityEnd > end) {
            throw new IllegalStateException("broker.xml needs " + SECURITY_END + " before " + CORE_END
                    + " to take the clients' settings");
        }
        StringBuilder limits = new StringBuilder("<resource-limit-settings>\n");
        StringBuilder security = new StringBuilder();
        new java.util.TreeMap<>(maxQueuesByUser).forEach((user, max) -> {
            if (!user.matches(BrokerUser.CLIENT_NAME)) {
                throw new IllegalArgumentException("a client user name the launcher writes must match "
                        + BrokerUser.CLIENT_NAME + " (one word of an address): " + user);
            }
            limits.append("         <resource-limit-setting match=\"").append(user).append("\">\n")
                    .append("            <max-queues>").append(max).append("</max-queues>\n")
                    .append("         </resource-limit-setting>\n");
            security.append(replySecurity(user));
        });
        limits.append("      </resource-limit-settings>");
        int securityLine = brokerXml.lastIndexOf('\n', securityEnd) + 1;
        return brokerXml.substring(0, securityLine) + security + brokerXml.substring(securityLine, end)
                + "   " + limits + "\n   " + brokerXml.substring(end);
    }

    private static String replySecurity(String user) {
        String owner = BrokerUser.replyOwnerRole(user);
        String[][] permissions = {
                {"createNonDurableQueue", owner + ",operator"},
                {"deleteNonDurableQueue", owner + ",operator"},
                {"createDurableQueue", "application," + owner + ",operator"},
                {"deleteDurableQueue", owner + ",operator"},
                {"createAddress", "application," + owner + ",operator"},
                {"deleteAddress", owner + ",operator"},
                {"consume", owner + ",operator"},
                {"browse", owner + ",operator"},
                {"send", "application"},
                {"manage", "operator"}};
        StringBuilder xml = new StringBuilder("         <!-- " + user + "'s reply queues (written by the launcher) -->\n")
                .append("         <security-setting match=\"overseer.reply.").append(user).append(".#\">\n");
        for (String[] permission : permissions) {
            xml.append("            <permission type=\"").append(permission[0]).append("\" roles=\"")
                    .append(permission[1]).append("\"/>\n");
        }
        return xml.append("         </security-setting>\n").toString();
    }
}
