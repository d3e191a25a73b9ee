package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.junit.jupiter.api.Test;

class BrokerUserTest {

    @Test
    void usersFileLineIsTheHashArtemisChecksNeverThePassword() throws Exception {
        BrokerUser user = new BrokerUser("alice", "s3cret", List.of("submitter"));

        String line = user.usersFileLine();

        assertTrue(line.startsWith("alice = ENC(1024:") && line.endsWith(")"), line);
        assertTrue(!line.contains("s3cret"), line);
        String[] parts = line.substring("alice = ENC(".length(), line.length() - 1).split(":");
        byte[] salt = HexFormat.of().parseHex(parts[1]);
        byte[] expected = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA1")
                .generateSecret(new PBEKeySpec("s3cret".toCharArray(), salt, 1024, 512)).getEncoded();
        assertEquals(HexFormat.of().withUpperCase().formatHex(expected), parts[2]);
    }

    @Test
    void generatedPasswordsDiffer() {
        assertNotEquals(BrokerUser.generated("a", "x").password(), BrokerUser.generated("a", "x").password());
    }

    /** A command line is visible to every local user while it runs: artemis create never carries a real password. */
    @Test
    void theCreateCommandLineCarriesAThrowawayPasswordNotTheUsersOne() {
        BrokerUser application = BrokerUser.generated("overseer-app", BrokerUser.APPLICATION);
        List<String> first = BrokerInstance.createCommand(java.nio.file.Path.of("artemis"), application.name(), 61616, 8161);
        List<String> second = BrokerInstance.createCommand(java.nio.file.Path.of("artemis"), application.name(), 61616, 8161);
        String password = first.get(first.indexOf("--password") + 1);
        assertTrue(!first.contains(application.password()), first.toString());
        assertEquals(48, password.length(), "random, 24 bytes in hex");
        assertNotEquals(password, second.get(second.indexOf("--password") + 1), "made up at each creation");
    }
}
