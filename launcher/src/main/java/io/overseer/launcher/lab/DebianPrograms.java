package io.overseer.launcher.lab;

import io.overseer.launcher.StackLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The programs the replicated PostgreSQL runs, from Debian's packages (decision 0020), and their installation. */
final class DebianPrograms {

    private static final Logger LOG = LoggerFactory.getLogger(DebianPrograms.class);

    static final Path PATRONI = Path.of("/usr/bin/patroni");
    static final Path ETCD = Path.of("/usr/bin/etcd");
    static final Path POSTGRESQL_VERSIONS = Path.of("/usr/lib/postgresql");
    /** Debian's packages that hold the programs above, for the message when one is missing. */
    static final String PACKAGES = "patroni etcd-server postgresql-15";

    private DebianPrograms() {
    }

    /** The newest PostgreSQL under /usr/lib/postgresql that Patroni 3.0 can run (up to 15). */
    static Path binDir() {
        for (String version : List.of("15", "14", "13")) {
            Path bin = POSTGRESQL_VERSIONS.resolve(version).resolve("bin");
            if (Files.isExecutable(bin.resolve("postgres"))) {
                return bin;
            }
        }
        return POSTGRESQL_VERSIONS.resolve("15/bin");
    }

    /**
     * Installs Debian's packages when a program is missing, as CI does for the browser: server-config's
     * install-packages, which as root runs apt-get (starting no service of theirs) and otherwise says what
     * to run. Then fails loudly if anything is still missing.
     */
    static void installIfMissing(StackLayout layout) throws IOException, InterruptedException {
        try {
            requirePrograms();
            return;
        } catch (IllegalStateException missing) {
            LOG.warn("{}; installing them with {}", missing.getMessage(), layout.postgresHaInstaller());
        }
        Process p = new ProcessBuilder("bash", layout.postgresHaInstaller().toString()).inheritIO().start();
        int exit = p.waitFor();
        if (exit != 0) {
            LOG.error("{} ended with exit code {}", layout.postgresHaInstaller(), exit);
        }
        requirePrograms();
    }

    /** Fails loudly, with the command that installs them, when a program the cluster needs is missing. */
    static void requirePrograms() {
        List<Path> missing = new ArrayList<>();
        for (Path p : List.of(PATRONI, ETCD, binDir().resolve("postgres"), binDir().resolve("pg_rewind"))) {
            if (!Files.isExecutable(p)) {
                missing.add(p);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("--db-ha runs Debian's Patroni, etcd and PostgreSQL, and " + missing
                    + " " + (missing.size() == 1 ? "is" : "are") + " missing: apt-get install " + PACKAGES
                    + " (the launcher does so itself when it runs as root)");
        }
    }
}
