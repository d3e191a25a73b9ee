package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for the broker's TLS acceptor ({@code --broker-tls}): a PKCS12 key store with
 * the key (mode 0600, in the 0700 data directory; its password, made up once, in a file beside it, 0600)
 * and a trust store holding only the public certificate, for the application and legacy clients. Made by
 * the JDK's keytool, for CN=localhost with 127.0.0.1 and localhost as subject alternative names, valid two
 * years; kept across restarts so that clients keep trusting it. The trust store's password guards only
 * its integrity (it holds no secret), so it is fixed: {@value #TRUST_STORE_PASSWORD}.
 */
public record TlsMaterial(Path keyStore, String keyStorePassword, Path trustStore, String trustStorePassword) {

    public static final String TRUST_STORE_PASSWORD = "overseer-trust";
    static final String ALIAS = "overseer-broker";

    /** The material in {@code dir}, made now if it is not there yet. */
    public static TlsMaterial inDirectory(Path dir) throws IOException {
        Path keyStore = dir.resolve("broker-keystore.p12");
        Path trustStore = dir.resolve("truststore.p12");
        Path passwordFile = dir.resolve("broker-keystore.password");
        if (Files.exists(keyStore) && Files.exists(trustStore) && Files.exists(passwordFile)) {
            return new TlsMaterial(keyStore, Files.readString(passwordFile).strip(), trustStore, TRUST_STORE_PASSWORD);
        }
        OwnerOnly.directory(dir);
        for (Path stale : List.of(keyStore, trustStore, passwordFile, dir.resolve("broker.crt"))) {
            Files.deleteIfExists(stale);
        }
        byte[] secret = new byte[18];
        new SecureRandom().nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        OwnerOnly.write(passwordFile, password);
        Path certificate = dir.resolve("broker.crt");
        // -storepass:file keeps the store's password off the command line, which every local user can read
        // while keytool runs.
        keytool("-genkeypair", "-alias", ALIAS, "-keyalg", "RSA", "-keysize", "2048", "-validity", "730",
                "-dname", "CN=localhost, O=Overseer (local)", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass:file", passwordFile.toString());
        OwnerOnly.restrict(keyStore);
        keytool("-exportcert", "-rfc", "-alias", ALIAS, "-keystore", keyStore.toString(),
                "-storepass:file", passwordFile.toString(), "-file", certificate.toString());
        keytool("-importcert", "-noprompt", "-alias", ALIAS, "-file", certificate.toString(), "-storetype", "PKCS12",
                "-keystore", trustStore.toString(), "-storepass", TRUST_STORE_PASSWORD);
        return new TlsMaterial(keyStore, password, trustStore, TRUST_STORE_PASSWORD);
    }

    private static void keytool(String... arguments) throws IOException {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + arguments[0] + " failed: " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        }
    }

    /** The acceptor's parameters (broker.xml, after the others; ';' separated). */
    String acceptorParameters() {
        return ";sslEnabled=true;keyStoreType=PKCS12;keyStorePath=" + keyStore + ";keyStorePassword=" + keyStorePassword;
    }
}
