package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerWiringTest {

    private static final String NETTY = "org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory";
    /** The adapter line of server-config's post-boot.asadmin, as the build copies it. */
    private static final Path TEMPLATE = Path.of("../server-config/payara/post-boot.asadmin");

    @Test
    void oneBrokerIsWiredWithItsCallTimeoutsAndDeadConnectionBounds() throws Exception {
        String line = adapterLine(BrokerWiring.single("127.0.0.1", 61616));
        assertEquals("create-resource-adapter-config --property \"ConnectorClassName=" + NETTY
                + ":ConnectionParameters=host\\=127.0.0.1;port\\=61616:CallTimeout=5000:CallFailoverTimeout=5000"
                + ":ConnectionTTL=10000:ClientFailureCheckPeriod=3000"
                + ":UserName=app:Password=secret\" artemis-rar", line);
    }

    @Test
    void aPairListsBothNodesWithHaAndFastRetries() throws Exception {
        String line = adapterLine(BrokerWiring.pair("127.0.0.1", 61616, 61617));
        assertEquals("create-resource-adapter-config --property \"ConnectorClassName=" + NETTY + "," + NETTY
                + ":ConnectionParameters=host\\=127.0.0.1;port\\=61616,host\\=127.0.0.1;port\\=61617"
                + ":HA=true:ReconnectAttempts=-1:RetryInterval=200:CallTimeout=5000:CallFailoverTimeout=5000"
                + ":ConnectionTTL=10000:ClientFailureCheckPeriod=3000:UserName=app:Password=secret\" artemis-rar", line);
    }

    @Test
    void appServerConfigWiresTheBackupWhenGivenOne() {
        AppServerConfig single = new AppServerConfig(8080, "jdbc:postgresql://h/db", "u", "p", "127.0.0.1", 61616,
                "app", "secret", "http://127.0.0.1:8090", Map.of(), null);
        assertFalse(single.brokerWiring().highlyAvailable());
        AppServerConfig pair = single.withBrokerBackup(61617).withAppProperties(Map.of("a", "1")).withBindAddress("127.0.0.1");
        assertEquals(BrokerWiring.pair("127.0.0.1", 61616, 61617), pair.brokerWiring());
        assertEquals(":HA=true:ReconnectAttempts=-1:RetryInterval=200:CallTimeout=5000:CallFailoverTimeout=5000"
                + ":ConnectionTTL=10000:ClientFailureCheckPeriod=3000", pair.postBootValues("/r.rar").get("BROKER_HA_PROPERTIES"));
        assertEquals(":CallTimeout=5000:CallFailoverTimeout=5000:ConnectionTTL=10000:ClientFailureCheckPeriod=3000",
                single.postBootValues("/r.rar").get("BROKER_HA_PROPERTIES"),
                "every wiring bounds a blocking call and a dead connection");
    }

    @Test
    void legacyClientsGetOneUrlOrTheListWithHa() {
        assertEquals("tcp://127.0.0.1:61616", BrokerWiring.single("127.0.0.1", 61616).clientUrl());
        assertEquals("(tcp://127.0.0.1:61616,tcp://127.0.0.1:61617)?ha=true&reconnectAttempts=-1&retryInterval=200"
                + "&callTimeout=5000&callFailoverTimeout=5000", BrokerWiring.pair("127.0.0.1", 61616, 61617).clientUrl());
    }

    /** --broker-tls: the adapter and legacy clients speak TLS, trusting the broker's certificate. */
    @Test
    void withTlsEveryConnectionTrustsTheBrokersCertificate() throws Exception {
        TlsMaterial tls = new TlsMaterial(Path.of("/d/tls/broker-keystore.p12"), "k", Path.of("/d/tls/truststore.p12"), "t");
        String line = adapterLine(BrokerWiring.single("127.0.0.1", 61616).withTls(tls));
        assertTrue(line.contains(":ConnectionParameters=host\\=127.0.0.1;port\\=61616;sslEnabled\\=true;forceSSLParameters\\=true;trustStoreType\\=PKCS12"
                + ";trustStorePath\\=/d/tls/truststore.p12;trustStorePassword\\=t:CallTimeout="), line);
        assertEquals("tcp://127.0.0.1:61616?sslEnabled=true&trustStoreType=PKCS12&trustStorePath=/d/tls/truststore.p12"
                + "&trustStorePassword=t", BrokerWiring.single("127.0.0.1", 61616).withTls(tls).clientUrl());
        assertEquals(";sslEnabled=true;keyStoreType=PKCS12;keyStorePath=/d/tls/broker-keystore.p12;keyStorePassword=k",
                tls.acceptorParameters());
    }

    /** The certificate is made once and kept: clients that trust it keep trusting it after a restart. */
    @Test
    void theCertificateIsMadeOnceAndItsKeyIsTheOwnersAlone(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        TlsMaterial made = TlsMaterial.inDirectory(dir.resolve("tls"));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(made.keyStore())));
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("tls"))));
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(made.trustStore())) {
            trust.load(in, made.trustStorePassword().toCharArray());
        }
        var certificate = (java.security.cert.X509Certificate) trust.getCertificate(TlsMaterial.ALIAS);
        assertTrue(certificate.getSubjectX500Principal().getName().contains("CN=localhost"), certificate.toString());
        assertEquals(made, TlsMaterial.inDirectory(dir.resolve("tls")), "read back, not made again");
    }

    @Test
    void anEndpointNeedsAHostAndAPort() {
        assertThrows(IllegalArgumentException.class, () -> new BrokerWiring(List.of()));
        assertThrows(IllegalArgumentException.class, () -> BrokerWiring.single("", 61616));
        assertThrows(IllegalArgumentException.class, () -> BrokerWiring.single("h", 0));
    }

    /** The template's adapter command filled in with these nodes: what Payara will run. */
    private static String adapterLine(BrokerWiring wiring) throws Exception {
        Map<String, String> values = new java.util.HashMap<>(wiring.postBootValues());
        values.put("BROKER_USER", "app");
        values.put("BROKER_PASSWORD", "secret");
        String filled = Templates.substitute(Files.readString(TEMPLATE), values);
        List<String> lines = filled.lines().filter(l -> l.startsWith("create-resource-adapter-config")).toList();
        assertEquals(1, lines.size(), filled);
        assertTrue(Templates.unresolved(lines.get(0)).isEmpty(), lines.get(0));
        return lines.get(0);
    }
}
