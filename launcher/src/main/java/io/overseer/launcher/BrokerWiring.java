package io.overseer.launcher;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How clients reach the broker: one node, or the nodes of a replicated pair (or of a user's own cluster).
 * Fills the resource adapter's part of post-boot.asadmin and spells the URL legacy JMS clients use.
 *
 * <p>With several nodes the adapter gets every node (ConnectorClassName once per node, ConnectionParameters
 * one host/port pair per node), HA=true so it follows the pair's topology to the backup and back, and
 * ReconnectAttempts=-1 with RetryInterval=200: MDBs resumed 0.57 s after a primary's kill -9 with 200 ms,
 * 2.1 s with the default (docs/broker-ha.md). Every wiring, one broker too ({@link #CALL_TIMEOUT_PROPERTIES}),
 * has CallTimeout and CallFailoverTimeout 5 s (the client's default is 30 s): a blocking call (a commit, an XA end) sent just as the active node dies can miss the "unblock" of
 * the failure and then waits its whole timeout for an answer that never comes. The courier's one sender
 * lane was seen stuck so for 30 s in a CI run, and nothing was processed meanwhile; after 5 s the call
 * fails, the courier sends its drain again on the other node, and the repeat is harmless (messages are
 * fenced hints). With {@link TlsMaterial} every connection is TLS, trusting the broker's certificate
 * (--broker-tls).
 */
public record BrokerWiring(List<Endpoint> endpoints, TlsMaterial tls) { // tls null: plain TCP

    /** Netty, the connector of the broker's CORE acceptor. */
    static final String CONNECTOR = "org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory";
    static final int RETRY_INTERVAL_MS = 200;
    /** The longest a blocking call waits for an answer, at failover or not (the class comment says why). */
    static final int CALL_TIMEOUT_MS = 5000;
    /**
     * {@link #CALL_TIMEOUT_MS} for the adapter, with one broker as with several. At a broker's kill -9 the
     * adapter reconnects at once, and a reconnect made in the dying broker's last moment can still be accepted,
     * then reset. It then waits in a blocking "check for failover" call, and the reset that would end the wait
     * is handled on the same ordered executor that waits: only the call timeout ends it. With the default 30 s
     * each session factory caught so stayed down 30 s, holding one of the 16 threads of the client's global
     * pool (8 per core) meanwhile, and the first order was Processed 23 s after the broker's return
     * (BrokerOutageIT beside another fork, RELIABILITY.md); with 5 s they retry before the broker is back.
     */
    static final String CALL_TIMEOUT_PROPERTIES = ":CallTimeout=" + CALL_TIMEOUT_MS + ":CallFailoverTimeout=" + CALL_TIMEOUT_MS;
    /**
     * How soon the broker gives up on a connection it hears nothing from (ConnectionTTL, 10 s; its default
     * is 60 s), and how often the adapter pings to show it is alive and checks the broker is
     * (ClientFailureCheckPeriod, 3 s; default 30 s). An instance cut off from the broker keeps the messages
     * already dispatched to its consumers until the broker drops its connection: with 60 s, the attempts
     * they carried expired several times over and healthy orders were compensated (PartitionIT's first runs).
     */
    static final String DEAD_CONNECTION_PROPERTIES = ":ConnectionTTL=10000:ClientFailureCheckPeriod=3000";

    public record Endpoint(String host, int port) {
        public Endpoint {
            if (host == null || host.isBlank() || port < 1 || port > 65535) {
                throw new IllegalArgumentException("a broker endpoint needs a host and a port 1-65535: " + host + ":" + port);
            }
        }
    }

    public BrokerWiring(List<Endpoint> endpoints) {
        this(endpoints, null);
    }

    public BrokerWiring {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one broker endpoint");
        }
        endpoints = List.copyOf(endpoints);
    }

    public static BrokerWiring single(String host, int port) {
        return new BrokerWiring(List.of(new Endpoint(host, port)));
    }

    /** A primary and its backup (the order clients try them in). */
    public static BrokerWiring pair(String host, int primaryPort, int backupPort) {
        return new BrokerWiring(List.of(new Endpoint(host, primaryPort), new Endpoint(host, backupPort)));
    }

    /** The same nodes over TLS, trusting {@code tls}'s certificate (the broker's --broker-tls acceptor). */
    public BrokerWiring withTls(TlsMaterial material) {
        return new BrokerWiring(endpoints, material);
    }

    public boolean highlyAvailable() {
        return endpoints.size() > 1;
    }

    /**
     * Placeholder values of the adapter's --property list: BROKER_CONNECTORS, BROKER_CONNECTION_PARAMETERS and
     * BROKER_HA_PROPERTIES (the failover settings for a pair; for every wiring the call timeouts,
     * {@link #CALL_TIMEOUT_PROPERTIES}, and the dead-connection bounds, {@link #DEAD_CONNECTION_PROPERTIES}),
     * escaped for asadmin.
     */
    public Map<String, String> postBootValues() {
        List<String> classes = new ArrayList<>(Collections.nCopies(endpoints.size(), CONNECTOR));
        List<String> parameters = endpoints.stream()
                .map(e -> "host\\=" + Templates.asadminEscape(e.host()) + ";port\\=" + e.port() + adapterTls()).toList();
        Map<String, String> v = new LinkedHashMap<>();
        v.put("BROKER_CONNECTORS", String.join(",", classes));
        v.put("BROKER_CONNECTION_PARAMETERS", String.join(",", parameters));
        v.put("BROKER_HA_PROPERTIES", (highlyAvailable() ? ":HA=true:ReconnectAttempts=-1:RetryInterval=" + RETRY_INTERVAL_MS : "")
                + CALL_TIMEOUT_PROPERTIES + DEAD_CONNECTION_PROPERTIES);
        return v;
    }

    /**
     * The Core client URL: {@code tcp://h:p} for one node; for several the list in parentheses with ha=true,
     * so a client follows the topology, reconnectAttempts=-1, so it keeps trying through a failover, and
     * the adapter's 5 s call timeouts, so that a send caught in a failover fails after 5 s instead of 30 and
     * can be sent again (with its Idempotency-Key, harmlessly).
     */
    public String clientUrl() {
        if (!highlyAvailable()) {
            return url(endpoints.get(0)) + (tls == null ? "" : "?" + clientTls());
        }
        return "(" + String.join(",", endpoints.stream().map(BrokerWiring::url).toList()) + ")?ha=true"
                + "&reconnectAttempts=-1&retryInterval=" + RETRY_INTERVAL_MS + "&callTimeout=" + CALL_TIMEOUT_MS
                + "&callFailoverTimeout=" + CALL_TIMEOUT_MS + (tls == null ? "" : "&" + clientTls());
    }

    /**
     * The adapter's TLS parameters in asadmin's escaping, or nothing. forceSSLParameters: Payara sets
     * javax.net.ssl.trustStore (its own cacerts), which Artemis's connector otherwise prefers to the path
     * given here (seen: PKIX path building failed, the broker's certificate unknown).
     */
    private String adapterTls() {
        return tls == null ? "" : ";sslEnabled\\=true;forceSSLParameters\\=true;trustStoreType\\=PKCS12;trustStorePath\\="
                + Templates.asadminEscape(tls.trustStore().toString()) + ";trustStorePassword\\="
                + Templates.asadminEscape(tls.trustStorePassword());
    }

    /** The URL's TLS parameters (after a '?' or '&'); only with {@link #tls}. */
    private String clientTls() {
        return "sslEnabled=true&trustStoreType=PKCS12&trustStorePath=" + tls.trustStore()
                + "&trustStorePassword=" + tls.trustStorePassword();
    }

    private static String url(Endpoint e) {
        return "tcp://" + e.host() + ":" + e.port();
    }
}
