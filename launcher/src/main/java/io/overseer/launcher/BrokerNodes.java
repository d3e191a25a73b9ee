package io.overseer.launcher;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The stack's broker, chosen once from the options ({@link #of}): one Artemis ({@link BrokerNode}), the
 * replicated pair of {@code --broker-ha} ({@link BrokerPair}), or an external broker that this launcher
 * neither starts nor stops ({@link ExternalBroker}). The stack starts, stops, watches, wires the application
 * servers to it and prints it through this type alone.
 */
public sealed interface BrokerNodes extends Node permits BrokerNode, BrokerPair, ExternalBroker {

    /** The address the application servers reach it at (the primary's, for the pair). */
    String clientHost();

    /** {@code config}, which names {@link #clientHost()}, with whatever else a server needs: the pair's backup, TLS. */
    AppServerConfig wire(AppServerConfig config);

    /** Restarts what dies, as a machine's service manager would, once the stack is up; most need nobody. */
    default void watch() {
    }

    /** Its lines of the banner ({@link Summary}). */
    List<SummaryRow> summaryRows();

    /** How the banner's headline counts it, e.g. "one broker". */
    default String headline() {
        return "one broker";
    }

    /** Whether this launcher made it, with the local demo users in it. */
    default boolean local() {
        return true;
    }

    /** A sentence for the banner's end about what happens when it dies, or "" when nothing is said. */
    default String restartNote() {
        return "";
    }

    /**
     * The only place the broker's mode is decided. The primary of a pair keeps the single broker's folder:
     * switching --broker-ha on keeps the journal.
     */
    static BrokerNodes of(LauncherOptions options, StackLayout layout, Hosts hosts, List<BrokerUser> users,
                          Optional<TlsMaterial> tls) {
        if (!options.localBroker()) {
            return new ExternalBroker(options.brokerHost(), options.brokerPort());
        }
        Path dataDir = options.dataDir();
        Path logs = dataDir.resolve("logs");
        if (options.brokerHa()) {
            return new BrokerPair(layout, dataDir.resolve("broker"), dataDir.resolve("broker-backup"),
                    options.brokerPort(), options.brokerBackupPort(), options.consolePort(),
                    options.backupConsolePort(), logs, users, hosts.place("broker"), hosts.place("broker2"));
        }
        BrokerNode broker = new BrokerNode(layout, dataDir.resolve("broker"), options.brokerPort(), options.consolePort(),
                logs.resolve("artemis.log"), users);
        broker.placeOn(hosts.place("broker"));
        tls.ifPresent(broker::useTls);
        return broker;
    }
}
