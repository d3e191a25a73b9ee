package io.overseer.launcher;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Payara Micro needs to know about the rest of the stack. Values fill the post-boot template's
 * placeholders; appProperties become -D system properties (MicroProfile Config, ordinal 400).
 * A null bindAddress leaves Payara Micro on all interfaces, its default.
 */
public record AppServerConfig(
        int httpPort,
        String dbUrl,
        String dbUser,
        String dbPassword,
        String brokerHost,
        int brokerPort,
        String brokerUser,
        String brokerPassword,
        String remoteServiceUrl,
        Map<String, String> appProperties,
        String maxHeap,
        String bindAddress,
        int brokerBackupPort, // 0: one broker; else the backup of a replicated pair on brokerHost
        TlsMaterial brokerTls, // null: plain TCP to the broker
        ServerJit jit, // null: C1 only, the launcher's default (ServerJit says why)
        String brokerBackupHost) { // null: the backup on brokerHost too

    public AppServerConfig {
        appProperties = Collections.unmodifiableMap(new LinkedHashMap<>(appProperties));
        maxHeap = maxHeap == null ? "512m" : maxHeap;
        jit = jit == null ? ServerJit.C1 : jit;
    }

    /** One broker. */
    public AppServerConfig(int httpPort, String dbUrl, String dbUser, String dbPassword, String brokerHost,
                           int brokerPort, String brokerUser, String brokerPassword, String remoteServiceUrl,
                           Map<String, String> appProperties, String maxHeap, String bindAddress) {
        this(httpPort, dbUrl, dbUser, dbPassword, brokerHost, brokerPort, brokerUser, brokerPassword,
                remoteServiceUrl, appProperties, maxHeap, bindAddress, 0, null, null, null);
    }

    /** On all interfaces. */
    public AppServerConfig(int httpPort, String dbUrl, String dbUser, String dbPassword, String brokerHost,
                           int brokerPort, String brokerUser, String brokerPassword, String remoteServiceUrl,
                           Map<String, String> appProperties, String maxHeap) {
        this(httpPort, dbUrl, dbUser, dbPassword, brokerHost, brokerPort, brokerUser, brokerPassword,
                remoteServiceUrl, appProperties, maxHeap, null, 0, null, null, null);
    }

    /** The same settings listening on {@code address} only (null: all interfaces). */
    public AppServerConfig withBindAddress(String address) {
        return new AppServerConfig(httpPort, dbUrl, dbUser, dbPassword, brokerHost, brokerPort, brokerUser,
                brokerPassword, remoteServiceUrl, appProperties, maxHeap, address, brokerBackupPort, brokerTls, jit,
                brokerBackupHost);
    }

    /** Same settings with extra or overriding application properties (e.g. a test's short timeouts). */
    public AppServerConfig withAppProperties(Map<String, String> extra) {
        Map<String, String> merged = new LinkedHashMap<>(appProperties);
        merged.putAll(extra);
        return new AppServerConfig(httpPort, dbUrl, dbUser, dbPassword, brokerHost, brokerPort, brokerUser,
                brokerPassword, remoteServiceUrl, merged, maxHeap, bindAddress, brokerBackupPort, brokerTls, jit,
                brokerBackupHost);
    }

    /** The same settings with the adapter on a replicated pair: the backup listens on {@code backupPort}. */
    public AppServerConfig withBrokerBackup(int backupPort) {
        return withBrokerBackup(brokerHost, backupPort);
    }

    /** As {@link #withBrokerBackup(int)}, the backup on a host of its own. */
    public AppServerConfig withBrokerBackup(String backupHost, int backupPort) {
        return new AppServerConfig(httpPort, dbUrl, dbUser, dbPassword, brokerHost, brokerPort, brokerUser,
                brokerPassword, remoteServiceUrl, appProperties, maxHeap, bindAddress, backupPort, brokerTls, jit,
                backupHost);
    }

    /** The same settings reaching the broker over TLS, trusting {@code tls}'s certificate. */
    public AppServerConfig withBrokerTls(TlsMaterial tls) {
        return new AppServerConfig(httpPort, dbUrl, dbUser, dbPassword, brokerHost, brokerPort, brokerUser,
                brokerPassword, remoteServiceUrl, appProperties, maxHeap, bindAddress, brokerBackupPort, tls, jit,
                brokerBackupHost);
    }

    /** The same settings with the server's JVM running {@code jit}'s compilers. */
    public AppServerConfig withJit(ServerJit serverJit) {
        return new AppServerConfig(httpPort, dbUrl, dbUser, dbPassword, brokerHost, brokerPort, brokerUser,
                brokerPassword, remoteServiceUrl, appProperties, maxHeap, bindAddress, brokerBackupPort, brokerTls,
                serverJit, brokerBackupHost);
    }

    /** The same settings on another database (a replicated one, say, or one where nothing listens). */
    public AppServerConfig withDatabase(String url, String user, String password) {
        return new AppServerConfig(httpPort, url, user, password, brokerHost, brokerPort, brokerUser,
                brokerPassword, remoteServiceUrl, appProperties, maxHeap, bindAddress, brokerBackupPort, brokerTls, jit,
                brokerBackupHost);
    }

    /** The same settings, the same broker user, on the broker at {@code host}:{@code port}. */
    public AppServerConfig withBroker(String host, int port) {
        return new AppServerConfig(httpPort, dbUrl, dbUser, dbPassword, host, port, brokerUser,
                brokerPassword, remoteServiceUrl, appProperties, maxHeap, bindAddress, brokerBackupPort, brokerTls, jit,
                brokerBackupHost);
    }

    /** The broker's node, or both nodes of the pair. */
    public BrokerWiring brokerWiring() {
        BrokerWiring wiring = brokerBackupPort == 0 ? BrokerWiring.single(brokerHost, brokerPort)
                : new BrokerWiring(java.util.List.of(new BrokerWiring.Endpoint(brokerHost, brokerPort),
                        new BrokerWiring.Endpoint(brokerBackupHost == null ? brokerHost : brokerBackupHost, brokerBackupPort)));
        return brokerTls == null ? wiring : wiring.withTls(brokerTls);
    }

    /** Placeholder values for post-boot.asadmin; those used inside --property lists are escaped. */
    public Map<String, String> postBootValues(String rarPath) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("RAR_PATH", rarPath);
        v.put("BROKER_HOST", Templates.asadminEscape(brokerHost));
        v.put("BROKER_PORT", Integer.toString(brokerPort));
        v.putAll(brokerWiring().postBootValues());
        v.put("BROKER_USER", Templates.asadminEscape(brokerUser));
        v.put("BROKER_PASSWORD", Templates.asadminEscape(brokerPassword));
        v.put("DB_URL", Templates.asadminEscape(dbUrl));
        v.put("DB_USER", Templates.asadminEscape(dbUser));
        v.put("DB_PASSWORD", Templates.asadminEscape(dbPassword));
        v.put("HTTP_PORT", Integer.toString(httpPort));
        return v;
    }
}
