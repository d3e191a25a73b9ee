package io.overseer.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a {@link WildFlyNode}, the setup half of it: server-config/wildfly's {@code modules.cli} run
 * once per installation (the stack's unpacked distribution), {@code configure.cli} run offline into a
 * template server directory (made again when the script or a value it reads changes), and before every
 * start a fresh copy of that configuration, the realm's users and the EAR in the node's own server
 * directory ({@code jboss.server.base.dir}), whose {@code data/} (the transaction log) stays.
 */
final class WildFlyServerDir {

    private static final Logger LOG = LoggerFactory.getLogger(WildFlyServerDir.class);
    static final String CONFIG = "standalone-full.xml";
    /** Written into the distribution once modules.cli has run there. */
    private static final String MODULES_MARKER = ".overseer-modules-installed";

    private final StackLayout layout;
    private final Path workDir;
    private final String label;
    private final Path logFile;

    /** {@code label} names the node in log lines and errors; jboss-cli's output is appended to {@code logFile}. */
    WildFlyServerDir(StackLayout layout, Path workDir, String label, Path logFile) {
        this.layout = layout;
        this.workDir = workDir;
        this.label = label;
        this.logFile = logFile;
    }

    /** The server directory, ready for a start with {@code config} and {@code users}; no server running. */
    Path prepare(AppServerConfig config, List<RealmUser> users) throws IOException {
        Files.createDirectories(workDir);
        Path home = layout.wildflyHome();
        installModules(home);
        Path template = configuredTemplate(home, config);
        Path base = workDir.resolve("server");
        for (String fresh : List.of("configuration", "deployments", "tmp")) {
            FileTrees.delete(base.resolve(fresh));
        }
        FileTrees.copy(template.resolve("configuration"), base.resolve("configuration"));
        OwnerOnly.directory(base.resolve("configuration"));
        Files.createDirectories(base.resolve("deployments"));
        Files.createDirectories(base.resolve("data"));
        writeUsers(base.resolve("configuration"), users);
        Files.copy(layout.ear(), base.resolve("deployments/overseer.ear"), StandardCopyOption.REPLACE_EXISTING);
        return base;
    }

    /**
     * modules.cli, once per distribution (it adds files below its modules/, and a second {@code module add}
     * fails with "already exists"). A run cut short leaves half a module behind, removed before it runs again.
     */
    private void installModules(Path home) throws IOException {
        OncePerDirectory.run(home, MODULES_MARKER, () -> {
            for (String module : List.of("org/postgresql", "org/eclipse/persistence")) {
                FileTrees.delete(home.resolve("modules").resolve(module));
            }
            Path props = writeProperties(workDir.resolve("modules.properties"), moduleJars(home));
            LOG.info("{}: installing the PostgreSQL driver and EclipseLink as modules, once", label);
            cli(home, home.resolve("standalone"), props, layout.wildflyScript("modules.cli"));
            Files.delete(props);
        });
    }

    private Map<String, String> moduleJars(Path home) throws IOException {
        Path jipijapa;
        try (Stream<Path> jars = Files.list(home.resolve("modules/system/layers/base/org/eclipse/persistence/main"))) {
            jipijapa = jars.filter(p -> p.getFileName().toString().startsWith("jipijapa-eclipselink-")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no jipijapa-eclipselink jar in " + home));
        }
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("overseer.postgresql.jar", layout.postgresqlJar().toString());
        properties.put("overseer.eclipselink.jar", layout.eclipselinkJar().toString());
        properties.put("overseer.jipijapa.jar", jipijapa.toString());
        return properties;
    }

    /**
     * The server directory with configure.cli applied offline, made again when the script or a value it
     * reads changed (the stamp is their digest). The marker is written last: a run cut short is redone.
     */
    private Path configuredTemplate(Path home, AppServerConfig c) throws IOException {
        Path dir = workDir.resolve("server-template");
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("overseer.db.url", c.dbUrl());
        properties.put("overseer.db.user", c.dbUser());
        properties.put("overseer.db.password", c.dbPassword());
        properties.put("overseer.broker.host", c.brokerHost());
        properties.put("overseer.broker.port", Integer.toString(c.brokerPort()));
        properties.put("overseer.broker.user", c.brokerUser());
        properties.put("overseer.broker.password", c.brokerPassword());
        String script = Files.readString(layout.wildflyScript("configure.cli"));
        String stamp = digest(script + properties);
        Path marker = dir.resolve("configured");
        if (Files.exists(marker) && Files.readString(marker).trim().equals(stamp)) {
            return dir;
        }
        FileTrees.delete(dir);
        FileTrees.copy(home.resolve("standalone/configuration"), dir.resolve("configuration"));
        OwnerOnly.directory(dir.resolve("configuration")); // configure.cli writes the passwords into standalone-full.xml
        Path props = writeProperties(workDir.resolve("overseer.properties"), properties);
        Path offline = workDir.resolve("configure-offline.cli");
        Files.writeString(offline, "embed-server --server-config=" + CONFIG + " --std-out=discard" + System.lineSeparator()
                + script + System.lineSeparator() + "stop-embedded-server" + System.lineSeparator());
        long t0 = System.nanoTime();
        cli(home, dir, props, offline);
        Files.delete(props); // it holds the passwords; the server's configuration has them now
        LOG.info("{}: configure.cli applied offline in {} ms", label, (System.nanoTime() - t0) / 1_000_000);
        Files.writeString(marker, stamp);
        return dir;
    }

    /** Properties for a CLI run, readable by their owner only (they hold passwords). */
    private static Path writeProperties(Path file, Map<String, String> properties) throws IOException {
        StringBuilder text = new StringBuilder();
        properties.forEach((k, v) -> {
            // configure.cli quotes the JDBC URL, which names several hosts with commas for a replicated database.
            String forbidden = k.equals("overseer.db.url") ? ".*[()\"\\\\\\n].*" : ".*[,()\"\\\\\\n].*";
            if (v.matches(forbidden)) {
                // The CLI's operation syntax: such a value would be cut or misread, not refused.
                throw new IllegalArgumentException(k + " must not contain " + (k.equals("overseer.db.url") ? "" : "a comma, ")
                        + "a parenthesis, a quote or a backslash");
            }
            text.append(k).append('=').append(v).append(System.lineSeparator());
        });
        OwnerOnly.write(file, text.toString());
        return file;
    }

    /**
     * The application realm's users (web.xml's HTTP Basic runs against WildFly's default ApplicationRealm),
     * written as add-user.sh writes them: the digest of "name:realm:password", and the groups, which
     * the default security domain maps to roles of the same name.
     */
    static void writeUsers(Path configuration, List<RealmUser> users) throws IOException {
        StringBuilder passwords = new StringBuilder("#$REALM_NAME=ApplicationRealm$" + System.lineSeparator());
        StringBuilder roles = new StringBuilder();
        for (RealmUser user : users) {
            passwords.append(user.name()).append('=')
                    .append(digestHex("MD5", user.name() + ":ApplicationRealm:" + user.password()))
                    .append(System.lineSeparator());
            roles.append(user.name()).append('=').append(String.join(",", user.groups())).append(System.lineSeparator());
        }
        for (var file : Map.of("application-users.properties", passwords, "application-roles.properties", roles).entrySet()) {
            OwnerOnly.write(configuration.resolve(file.getKey()), file.getValue().toString());
        }
    }

    /** Runs a jboss-cli script to completion on the launcher's JDK; its output goes to the node's log too. */
    private void cli(Path home, Path base, Path properties, Path script) throws IOException {
        List<String> cmd = List.of(Java.executable(), "-Djboss.home.dir=" + home, "-Djboss.server.base.dir=" + base,
                "-Dlogging.configuration=file:" + home.resolve("bin/jboss-cli-logging.properties"),
                "-jar", home.resolve("jboss-modules.jar").toString(), "-mp", home.resolve("modules").toString(),
                "org.jboss.as.cli", "--resolve-parameter-values", "--properties=" + properties, "--file=" + script);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("JBOSS_HOME", home.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException(label + ": jboss-cli " + script.getFileName() + " failed (exit "
                        + p.exitValue() + "):\n" + out);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(label + ": interrupted in jboss-cli " + script.getFileName(), e);
        }
        Files.createDirectories(logFile.getParent());
        Files.writeString(logFile, "jboss-cli " + script.getFileName() + System.lineSeparator() + out,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static String digest(String text) {
        return digestHex("SHA-256", text);
    }

    private static String digestHex(String algorithm, String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
