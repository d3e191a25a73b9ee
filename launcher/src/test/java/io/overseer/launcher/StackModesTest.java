package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each mode chosen once from the options, and an accessor for a mode the stack does not have failing with why. */
class StackModesTest {

    private static Stack stack(String... args) {
        LauncherOptions options = LauncherOptions.parse(args, Map.of("OVERSEER_DATA_DIR", "/tmp/ovs"));
        return new Stack(options, StackLayout.fromDirectory(Path.of("/tmp/stack")));
    }

    @Test
    void theDefaultIsOneEmbeddedDatabaseAndOneBrokerOnTheLoopback() {
        Stack stack = stack("--db-port", "15432");
        PostgresNode postgres = assertInstanceOf(PostgresNode.class, stack.database());
        assertSame(postgres, stack.postgres());
        assertEquals("jdbc:postgresql://127.0.0.1:15432/overseer", stack.appServer().config().dbUrl());
        BrokerNode broker = assertInstanceOf(BrokerNode.class, stack.brokers());
        assertSame(broker, stack.broker());
        assertEquals(0, stack.appServer().config().brokerBackupPort());
        assertSame(Hosts.loopback(), stack.hosts());
        IllegalStateException noHa = assertThrows(IllegalStateException.class, stack::postgresHa);
        assertTrue(noHa.getMessage().contains("not the replicated one of --db-ha"), noHa.getMessage());
        assertThrows(IllegalStateException.class, stack::brokerPair);
        IllegalStateException noNetwork = assertThrows(IllegalStateException.class, stack::network);
        assertTrue(noNetwork.getMessage().contains("--hosts namespaces"), noNetwork.getMessage());
    }

    @Test
    void brokerHaIsThePairWhosePrimaryIsTheBrokerAndWhoseBackupTheServersKnow() {
        Stack stack = stack("--broker-ha", "--broker-port", "16161");
        BrokerPair pair = assertInstanceOf(BrokerPair.class, stack.brokers());
        assertSame(pair, stack.brokerPair());
        assertSame(pair.primary(), stack.broker());
        assertEquals(16162, stack.appServer().config().brokerBackupPort());
    }

    @Test
    void externalOnesStartNothingAndAreWhatTheServersUse() throws Exception {
        Stack stack = stack("--db-url", "jdbc:postgresql://db.example/orders", "--db-user", "u",
                "--broker-host", "broker.example", "--broker-user", "u", "--broker-password", "p");
        ExternalDatabase database = assertInstanceOf(ExternalDatabase.class, stack.database());
        ExternalBroker broker = assertInstanceOf(ExternalBroker.class, stack.brokers());
        database.start();
        broker.start();
        assertEquals(-1, database.pid());
        assertEquals("jdbc:postgresql://db.example/orders", stack.appServer().config().dbUrl());
        assertEquals("broker.example", stack.appServer().config().brokerHost());
        IllegalStateException noBroker = assertThrows(IllegalStateException.class, stack::broker);
        assertTrue(noBroker.getMessage().contains("starts no broker"), noBroker.getMessage());
        assertThrows(IllegalStateException.class, stack::postgres);
    }

    @Test
    void brokerTlsIsTheSingleBrokersAndTheServersTrustIt() {
        Stack stack = stack("--broker-tls", "--data-dir", "target/stack-modes-tls");
        assertTrue(stack.brokerTls().isPresent());
        assertSame(stack.brokerTls().get(), stack.appServer().config().brokerTls());
        assertTrue(stack(new String[0]).brokerTls().isEmpty());
    }
}
