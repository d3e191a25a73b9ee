package io.overseer.launcher.lab;

import io.overseer.launcher.OwnerOnly;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

/**
 * The replicated PostgreSQL's own passwords (superuser, replication, rewind), made once: initdb and the
 * first replication store them, so a later start must use the same ones. Kept in a file closed to others.
 */
final class ClusterSecrets {

    static final String FILE = "secrets.properties";
    static final List<String> KEYS = List.of("SUPERUSER_PASSWORD", "REPLICATION_PASSWORD", "REWIND_PASSWORD");

    private ClusterSecrets() {
    }

    /** The passwords in the cluster's {@code dir}, made and stored there at the first call. */
    static Properties in(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        Properties p = new Properties();
        if (Files.exists(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            }
            return p;
        }
        SecureRandom random = new SecureRandom();
        for (String k : KEYS) {
            byte[] b = new byte[18];
            random.nextBytes(b);
            p.setProperty(k, Base64.getUrlEncoder().withoutPadding().encodeToString(b));
        }
        OwnerOnly.write(file, "");
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, "made by the launcher at the cluster's first start; initdb stored them");
        }
        return p;
    }
}
