package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class BrokerXmlTest {

    private static final Path ARTEMIS = Path.of("../server-config/artemis");

    /** server-config's own templates, filled in as BrokerInstance does for the node of {@code role}. */
    private static Document node(BrokerHa.Role role) throws Exception {
        String xml = BrokerXml.withReplication(Files.readString(ARTEMIS.resolve("broker.xml")),
                Files.readString(ARTEMIS.resolve("ha-replication.xml")),
                Files.readString(ARTEMIS.resolve("ha-" + role.label() + ".xml")));
        String filled = Templates.substitute(xml, Map.of("BROKER_PORT", "61616", "PEER_PORT", "61617",
                "BROKER_HOST", "127.0.0.1", "PEER_HOST", "127.0.0.1",
                "DATA_DIR", "/d", "CLUSTER_USER", "overseer-cluster", "CLUSTER_PASSWORD", "pw", "ACCEPTOR_TLS", ""));
        assertTrue(Templates.unresolved(filled).isEmpty(), "placeholders left: " + Templates.unresolved(filled));
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(filled.getBytes(StandardCharsets.UTF_8)));
    }

    private static String text(Document doc, String path) {
        Element e = doc.getDocumentElement();
        for (String name : path.split("/")) {
            e = (Element) e.getElementsByTagName(name).item(0);
            if (e == null) {
                return null;
            }
        }
        return e.getTextContent().trim();
    }

    @Test
    void thePrimaryChecksForAnActiveServerBeforeActivating() throws Exception {
        Document doc = node(BrokerHa.Role.PRIMARY);
        assertEquals("true", text(doc, "core/ha-policy/replication/primary/check-for-active-server"));
        assertEquals(null, text(doc, "core/ha-policy/replication/backup"));
        assertEquals("tcp://127.0.0.1:61617", peer(doc));
        assertEquals("OFF", text(doc, "core/cluster-connections/cluster-connection/message-load-balancing"));
        assertEquals("overseer-cluster", text(doc, "core/cluster-user"));
        // Everything else is broker.xml's, once: the queues are still there.
        assertEquals(6, doc.getElementsByTagName("address").getLength());
    }

    @Test
    void theBackupFailsBackToARestartedPrimary() throws Exception {
        Document doc = node(BrokerHa.Role.BACKUP);
        assertEquals("true", text(doc, "core/ha-policy/replication/backup/allow-failback"));
        assertEquals(null, text(doc, "core/ha-policy/replication/primary"));
    }

    @Test
    void aTemplateWithoutItsSlotFailsLoudly() {
        assertThrows(IllegalStateException.class, () -> BrokerXml.withReplication("<core></core>", "<ha/>", "<backup/>"));
        assertThrows(IllegalStateException.class, () -> BrokerXml.withReplication("<core/>", "@HA_ROLE@", "<backup/>"));
        assertThrows(IllegalStateException.class,
                () -> BrokerXml.withReplication("<core></core><core></core>", "@HA_ROLE@", "<backup/>"));
    }

    private static String peer(Document doc) {
        var connectors = doc.getElementsByTagName("connector");
        for (int i = 0; i < connectors.getLength(); i++) {
            Element c = (Element) connectors.item(i);
            if ("peer".equals(c.getAttribute("name"))) {
                return c.getTextContent().trim();
            }
        }
        return null;
    }

    /** Each client user's queue cap is written into core, parsed as Artemis reads it; the application and operators have none. */
    @Test
    void clientUsersGetAQueueCapAndTheApplicationAndOperatorsDoNot() throws Exception {
        java.util.List<BrokerUser> users = java.util.List.of(
                BrokerUser.generated("overseer-app", BrokerUser.APPLICATION),
                new BrokerUser("demo", "demo", BrokerUser.CLIENT_ROLES),
                BrokerUser.generated("legacy-app", BrokerUser.SUBMITTER),
                BrokerUser.generated("watcher", BrokerUser.VIEWER));
        Map<String, Integer> limits = BrokerInstance.clientQueueLimits(users);
        assertEquals(Map.of("legacy-app", BrokerInstance.CLIENT_MAX_QUEUES, "watcher", BrokerInstance.CLIENT_MAX_QUEUES), limits);

        String xml = BrokerXml.withClients(Files.readString(ARTEMIS.resolve("broker.xml")), limits);
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document doc = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        var settings = doc.getElementsByTagNameNS("*", "resource-limit-setting");
        assertEquals(2, settings.getLength(), xml);
        Element first = (Element) settings.item(0);
        assertEquals("legacy-app", first.getAttribute("match"));
        assertEquals("core", first.getParentNode().getParentNode().getLocalName());
        assertEquals(Integer.toString(BrokerInstance.CLIENT_MAX_QUEUES),
                first.getElementsByTagNameNS("*", "max-queues").item(0).getTextContent());
        assertThrows(IllegalArgumentException.class, () -> BrokerXml.withClients(xml, Map.of("a\"><x", 1)));
        assertThrows(IllegalArgumentException.class, () -> BrokerXml.withClients(xml, Map.of("a.b", 1)),
                "a dot would make the user's reply prefix match another's");

        // Each client's own reply queues: readable by its role alone (and operators), sent to by the application.
        var security = doc.getElementsByTagNameNS("*", "security-setting");
        Element own = null;
        for (int i = 0; i < security.getLength(); i++) {
            Element setting = (Element) security.item(i);
            if (setting.getAttribute("match").equals("overseer.reply.legacy-app.#")) {
                own = setting;
            }
        }
        assertNotNull(own, xml);
        assertEquals("security-settings", own.getParentNode().getLocalName());
        Map<String, String> roles = new java.util.HashMap<>();
        var permissions = own.getElementsByTagNameNS("*", "permission");
        for (int i = 0; i < permissions.getLength(); i++) {
            Element permission = (Element) permissions.item(i);
            roles.put(permission.getAttribute("type"), permission.getAttribute("roles"));
        }
        assertEquals("replies-of-legacy-app,operator", roles.get("consume"));
        assertEquals("application", roles.get("send"));
        assertEquals(10, roles.size(), roles.toString());
    }
}
