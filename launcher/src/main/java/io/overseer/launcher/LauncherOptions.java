package io.overseer.launcher;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What to start and where. Every flag has an environment variable as fallback (a flag wins), so the same
 * settings work from ./run, from CI and from a test that builds options with {@link #parse}.
 */
public record LauncherOptions(
        Path dataDir,
        Path stackDir,          // null: next to the launcher jar
        Path application,       // null: Overseer's own EAR or WAR from the stack; else a team's (--application)
        AppRuntime runtime,     // the application server: Payara Micro (the WAR) unless --runtime says otherwise
        int httpPort,           // the first instance's; instance K listens on httpPort + K - 1
        int instances,          // application instances, 1..AppInstance.MAX (Payara Micro only: 1 otherwise)
        String bindAddress,     // null: all interfaces (Payara Micro's default)
        int simulatorPort,
        int brokerPort,
        int consolePort,
        int dbPort,
        String dbUrl,           // non-null: external PostgreSQL, nothing embedded is started
        String dbUser,
        String dbPassword,
        boolean dbHa,           // a local replicated PostgreSQL (Patroni, etcd) on dbPort and the 9 ports above
        String brokerHost,      // non-null: external broker, no local Artemis
        String brokerUser,
        String brokerPassword,
        boolean brokerHa,       // a local primary/backup pair; the backup on brokerPort + 1, console + 1
        boolean brokerTls,      // the local broker's acceptor speaks TLS only (a certificate made in dataDir/tls)
        Map<String, String> appProperties,
        ServerJit serverJit,    // the application server JVM's JIT compilers
        boolean ownHosts,       // --hosts namespaces: every process on a host (network namespace) of its own
        boolean tracing,        // Zipkin and the OTLP relay started, the servers' MicroProfile Telemetry on
        int zipkinPort,
        int otlpPort,           // the relay's (TraceRelay)
        boolean help) {

    /** Local demo credentials, created by the launcher only; never a default anywhere else. */
    public static final String DEMO_USER = "demo";
    public static final String DEMO_PASSWORD = "demo";
    /** The local read-only demo user (role viewer): the console without its actions. */
    public static final String VIEWER_USER = "viewer";
    public static final String VIEWER_PASSWORD = "viewer";
    /** The embedded database's application role, database and password. */
    public static final String EMBEDDED_DB = "overseer";

    public LauncherOptions {
        appProperties = Collections.unmodifiableMap(new LinkedHashMap<>(appProperties));
    }

    public boolean embeddedDb() {
        return dbUrl == null;
    }

    public boolean localBroker() {
        return brokerHost == null;
    }

    /**
     * JDBC URL the application uses: the external one, the embedded server's, or with --db-ha both hosts of
     * the replicated one, the driver choosing the primary.
     */
    public String effectiveDbUrl() {
        if (!embeddedDb()) {
            return dbUrl;
        }
        return dbHa ? ReplicatedDatabase.loopbackJdbcUrl(dbPort, EMBEDDED_DB) : "jdbc:postgresql://127.0.0.1:" + dbPort + "/" + EMBEDDED_DB;
    }

    public String effectiveDbUser() {
        return embeddedDb() ? EMBEDDED_DB : dbUser;
    }

    public String effectiveDbPassword() {
        return embeddedDb() ? EMBEDDED_DB : dbPassword;
    }

    /** The backup node of --broker-ha: the port above the primary's. */
    public int brokerBackupPort() {
        return brokerPort + 1;
    }

    public int backupConsolePort() {
        return consolePort + 1;
    }

    public String effectiveBrokerHost() {
        return localBroker() ? "127.0.0.1" : brokerHost;
    }

    public static LauncherOptions parse(String[] args, Map<String, String> env) {
        return OptionParser.parse(args, env);
    }

    public static LauncherOptions defaults() {
        return parse(new String[0], Map.of());
    }
}
