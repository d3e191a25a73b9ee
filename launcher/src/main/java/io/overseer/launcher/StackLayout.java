package io.overseer.launcher;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the built stack lives: launcher/target/stack/ as laid out by the launcher's pom at package time.
 * Tests point at it with {@link #fromDirectory}; the executable jar finds it next to itself.
 */
public final class StackLayout {

    private final Path dir;
    /** A deployable of the user's own (--application) instead of the stack's overseer.ear or .war; null: none. */
    private final Path application;

    private StackLayout(Path dir) {
        this(dir, null);
    }

    private StackLayout(Path dir, Path application) {
        this.dir = dir.toAbsolutePath().normalize();
        this.application = application;
    }

    /** The same stack, running {@code file} (an .ear or a .war) instead of Overseer's own of that kind. */
    public StackLayout withApplication(Path file) {
        return new StackLayout(dir, file.toAbsolutePath().normalize());
    }

    public static StackLayout fromDirectory(Path stackDir) {
        return new StackLayout(stackDir);
    }

    /** stack/ next to the jar (or classes directory) this class was loaded from. */
    public static StackLayout besideLauncher() {
        try {
            Path code = Path.of(StackLayout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return new StackLayout(code.getParent().resolve("stack"));
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the launcher jar", e);
        }
    }

    public Path dir() {
        return dir;
    }

    public Path payaraMicroJar() {
        return dir.resolve("payara-micro.jar");
    }

    public Path war() {
        return own(".war") ? application : dir.resolve("overseer.war");
    }

    /** The EAR the ear module builds, for Payara Server (and WildFly): the same file users deploy. */
    public Path ear() {
        return own(".ear") ? application : dir.resolve("overseer.ear");
    }

    private boolean own(String extension) {
        return application != null && application.getFileName().toString().endsWith(extension);
    }

    /** The unpacked Payara Server distribution (fish.payara.distributions:payara). */
    public Path payaraServerHome() {
        return dir.resolve("payara6");
    }

    /** Payara Server's asadmin as a jar, run on the launcher's JDK (no shell script, no exec bits). */
    public Path payaraServerCli() {
        return payaraServerHome().resolve("glassfish/lib/client/appserver-cli.jar");
    }

    /** The unpacked WildFly distribution (org.wildfly:wildfly-dist), whatever its version. */
    public Path wildflyHome() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("wildfly-") && Files.isDirectory(p))
                    .sorted().reduce((a, b) -> b)
                    .orElse(dir.resolve("wildfly"));
        } catch (IOException e) {
            return dir.resolve("wildfly");
        }
    }

    /** EclipseLink, which WildFly gets as a module (server-config/wildfly/modules.cli). */
    public Path eclipselinkJar() {
        return dir.resolve("eclipselink.jar");
    }

    /** One of server-config/wildfly's jboss-cli scripts, as users run them. */
    public Path wildflyScript(String name) {
        return dir.resolve("config/wildfly").resolve(name);
    }

    public Path rar() {
        return dir.resolve("artemis-rar.rar");
    }

    public Path postgresqlJar() {
        return dir.resolve("postgresql.jar");
    }

    public Path remoteServiceJar() {
        return dir.resolve("remote-service.jar");
    }

    /** Zipkin's server as a runnable jar (io.zipkin:zipkin-server, classifier exec), for ./run --tracing. */
    public Path zipkinServerJar() {
        return dir.resolve("zipkin-server.jar");
    }

    public Path postBootTemplate() {
        return dir.resolve("config/post-boot.asadmin");
    }

    /** Closes the HTTP listener until the application is deployed (docs/health.md). */
    public Path httpClosedTemplate() {
        return dir.resolve("config/http-closed.asadmin");
    }

    public Path httpOpenTemplate() {
        return dir.resolve("config/http-open.asadmin");
    }

    /** The broker plugin broker.xml names (io.overseer.broker.OrderQueuePolicy), for the instance's lib/. */
    public Path brokerPolicyJar() {
        return dir.resolve("overseer-broker-policy.jar");
    }

    /** One node of ./run --db-ha's replicated PostgreSQL (server-config/postgres-ha), filled in by the lab's PatroniNode. */
    public Path patroniTemplate() {
        return dir.resolve("config/patroni.yml");
    }

    /** Installs Debian's Patroni, etcd and PostgreSQL 15 when missing (server-config/postgres-ha). */
    public Path postgresHaInstaller() {
        return dir.resolve("config/install-packages");
    }

    public Path brokerXmlTemplate() {
        return dir.resolve("config/broker.xml");
    }

    /** Replication settings inserted into broker.xml for a node of --broker-ha (see {@link BrokerXml}). */
    public Path haReplicationTemplate() {
        return dir.resolve("config/ha-replication.xml");
    }

    /** ha-primary.xml or ha-backup.xml: the role's policy inside the replication settings. */
    public Path haRoleTemplate(BrokerHa.Role role) {
        return dir.resolve("config/ha-" + role.label() + ".xml");
    }

    /** The unpacked distribution, whatever its version: the first apache-artemis-* directory. */
    public Path artemisHome() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("apache-artemis-") && Files.isDirectory(p))
                    .sorted().reduce((a, b) -> b)
                    .orElse(dir.resolve("apache-artemis"));
        } catch (IOException e) {
            return dir.resolve("apache-artemis");
        }
    }

    /** Fails with every missing piece listed, so "./mvnw install first" is obvious rather than a late crash. */
    public void verify(boolean needPostgresJar, boolean needArtemis) {
        verify(AppRuntime.PAYARA_MICRO, needPostgresJar, needArtemis);
    }

    /** As {@link #verify(boolean, boolean)} with what {@code runtime} needs: the WAR and Micro, or the EAR and the server. */
    public void verify(AppRuntime runtime, boolean needPostgresJar, boolean needArtemis) {
        List<Path> required = new ArrayList<>(List.of(rar(), remoteServiceJar(),
                postBootTemplate(), httpClosedTemplate(), httpOpenTemplate()));
        if (runtime == AppRuntime.PAYARA_SERVER) {
            required.addAll(List.of(ear(), payaraServerCli(), postgresqlJar()));
        } else if (runtime == AppRuntime.WILDFLY) {
            required.addAll(List.of(ear(), wildflyHome().resolve("jboss-modules.jar"), postgresqlJar(), eclipselinkJar(),
                    wildflyScript("modules.cli"), wildflyScript("configure.cli")));
        } else {
            required.addAll(List.of(payaraMicroJar(), war()));
        }
        if (needPostgresJar) {
            required.add(postgresqlJar());
        }
        if (needArtemis) {
            required.add(artemisHome().resolve("bin/artemis"));
            required.add(brokerPolicyJar());
        }
        List<String> missing = required.stream().filter(p -> !Files.exists(p)).map(Path::toString).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("stack incomplete in " + dir + " (run './mvnw -B -DskipTests install' from"
                    + " the repository root, or ./run --rebuild); missing: " + String.join(", ", missing));
        }
    }

    @Override
    public String toString() {
        return dir.toString();
    }
}
