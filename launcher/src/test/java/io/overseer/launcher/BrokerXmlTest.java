package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** server-config's own templates, filled in as BrokerNode does for the node of {@code role}. */
    private static Document node(BrokerHa.Role role) throws Exception {
        String xml = BrokerXml.withReplication(Files.readString(ARTEMIS.resolve("broker.xml")),
                Files.readString(ARTEMIS.resolve("ha-replication.xml")),
                Files.readString(ARTEMIS.resolve("ha-" + role.label() + ".xml")));
        String filled = Templates.substitute(xml, Map.of("BROKER_PORT", "61616", "PEER_PORT", "61617",
                "DATA_DIR", "/d", "CLUSTER_USER", "overseer-cluster", "CLUSTER_PASSWORD", "pw"));
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
}
