package io.overseer.support;

import fish.payara.arquillian.container.payara.managed.PayaraMicroContainerConfiguration;
import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.descriptor.api.Descriptor;

/**
 * Payara Micro's managed container, one server per archive for the whole run instead of one per test class.
 * The connector starts a Payara Micro process in {@code deploy()} and destroys it in {@code undeploy()}: 20 s
 * of boot for every class. Here the first {@code deploy()} of an archive name starts a server through the
 * connector itself (same command line, same wait for its "Instance Configuration" banner, same address read
 * from it), later ones get that server's {@link ProtocolMetaData} back, {@code undeploy()} does nothing, and
 * {@link #stopAll()} — called by {@link TestStack} when the JVM's test session ends — stops every server and
 * waits for its process to end before the test stack's PostgreSQL and broker go.
 *
 * <p>The servers belong to the JVM, not to this container: Arquillian's suite ends with each class when
 * failsafe hands a fork its classes one at a time (several forks, {@code it.forks}), and its {@link #stop()}
 * would otherwise boot a server per class again.
 *
 * <p>An archive of a known name with other content is refused, not served by the server of the first one:
 * a class that needs another deployment gives its archive another name and says why it needs it. At most
 * {@value #MAX_SERVERS} servers start in a run.
 * Registered by {@link SharedPayaraMicroExtension}.
 */
public final class SharedPayaraMicro implements DeployableContainer<PayaraMicroContainerConfiguration> {

    private static final Logger LOG = Logger.getLogger(SharedPayaraMicro.class.getName());
    /**
     * Servers a run may start: the tier's shared one, and one more for a class that truly cannot share it.
     * A third archive is refused, so that the tier cannot drift back to a boot per class unnoticed.
     */
    static final int MAX_SERVERS = 2;
    /** A stopped server's process ends within seconds; past this it is killed (the stack stops next). */
    private static final long STOP_WAIT_SECONDS = 60;

    private PayaraMicroContainerConfiguration configuration;
    /** Guarded by the class: every container instance of this JVM shares them. */
    private static final Map<String, Server> servers = new LinkedHashMap<>();
    /** Archives whose server did not start: later classes fail at once instead of booting it again. */
    private static final Map<String, DeploymentException> failed = new LinkedHashMap<>();

    private record Server(PayaraMicroDeployableContainer connector, Archive<?> archive, String fingerprint,
                          ProtocolMetaData metaData, List<ProcessHandle> processes) {
    }

    @Override
    public Class<PayaraMicroContainerConfiguration> getConfigurationClass() {
        return PayaraMicroContainerConfiguration.class;
    }

    @Override
    public void setup(PayaraMicroContainerConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new PayaraMicroDeployableContainer().getDefaultProtocol();
    }

    @Override
    public void start() {
        // servers start on their archive's first deploy, as with the connector
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        synchronized (SharedPayaraMicro.class) {
            return deployShared(archive);
        }
    }

    private ProtocolMetaData deployShared(Archive<?> archive) throws DeploymentException {
        if (failed.containsKey(archive.getName())) {
            throw new DeploymentException("The Payara Micro for " + archive.getName() + " did not start for an"
                    + " earlier class: not trying again", failed.get(archive.getName()));
        }
        String fingerprint = fingerprint(archive);
        Server running = servers.get(archive.getName());
        if (running != null) {
            if (!running.fingerprint().equals(fingerprint)) {
                throw new DeploymentException("Another archive named " + archive.getName() + " is already deployed on"
                        + " the shared Payara Micro: a class that needs a different deployment names its archive"
                        + " differently (and gets a server of its own)");
            }
            if (running.processes().stream().noneMatch(ProcessHandle::isAlive)) {
                throw new DeploymentException("The Payara Micro serving " + archive.getName() + " has exited;"
                        + " see the output of the first test class that deployed it");
            }
            return running.metaData();
        }
        if (servers.size() == MAX_SERVERS) {
            throw new DeploymentException("A Payara Micro for " + archive.getName() + " would be server #"
                    + (MAX_SERVERS + 1) + " of this run (already running: " + servers.keySet() + "): deploy the"
                    + " tier's shared archive (io.overseer.it.TheWar), scoping what the class needs to its own"
                    + " operations or services");
        }
        Set<Long> before = childPids();
        PayaraMicroDeployableContainer connector = new PayaraMicroDeployableContainer();
        connector.setup(configuration);
        LOG.info("Starting Payara Micro #" + (servers.size() + 1) + " of this run, for " + archive.getName());
        long started = System.nanoTime();
        ProtocolMetaData metaData;
        try {
            metaData = connector.deploy(archive);
        } catch (DeploymentException | RuntimeException e) {
            metaData = null;
            failed.put(archive.getName(), new DeploymentException("Payara Micro did not start", e));
        }
        List<ProcessHandle> processes = ProcessHandle.current().children()
                .filter(p -> !before.contains(p.pid())).toList();
        if (metaData == null) { // the connector's way of reporting a timeout, or the failure caught above
            processes.forEach(ProcessHandle::destroyForcibly);
            DeploymentException failure = failed.computeIfAbsent(archive.getName(),
                    name -> new DeploymentException("Payara Micro did not start for " + name));
            throw failure;
        }
        LOG.info("Payara Micro #" + (servers.size() + 1) + " serves " + archive.getName() + " after "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) + " ms; later classes reuse it");
        servers.put(archive.getName(), new Server(connector, archive, fingerprint, metaData, processes));
        return metaData;
    }

    @Override
    public void undeploy(Archive<?> archive) {
        // the server stays for the next class; stop() ends it
    }

    /** Arquillian's end of a suite, which may be one class's end: the servers stay until {@link #stopAll()}. */
    @Override
    public void stop() {
    }

    /** Stops every server this JVM started and waits for each process to end. */
    static synchronized void stopAll() throws LifecycleException {
        for (Server server : servers.values()) {
            try {
                server.connector().undeploy(server.archive()); // destroys the process (SIGTERM)
            } catch (DeploymentException e) {
                throw new LifecycleException("Stopping the Payara Micro of " + server.archive().getName(), e);
            }
        }
        for (Server server : servers.values()) {
            for (ProcessHandle process : server.processes()) {
                try {
                    process.onExit().get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    LOG.warning("Payara Micro " + process.pid() + " still running " + STOP_WAIT_SECONDS + " s after"
                            + " it was stopped: killed");
                    process.destroyForcibly();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LifecycleException("Interrupted while stopping Payara Micro", e);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new LifecycleException("Waiting for Payara Micro to stop", e);
                }
            }
        }
        servers.clear();
    }

    @Override
    public void deploy(Descriptor descriptor) {
        throw new UnsupportedOperationException("Payara Micro deploys archives only");
    }

    @Override
    public void undeploy(Descriptor descriptor) {
        throw new UnsupportedOperationException("Payara Micro deploys archives only");
    }

    private static Set<Long> childPids() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    /** A digest of every entry's path and bytes: equal for two archives built the same way. */
    private static String fingerprint(Archive<?> archive) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            Map<String, Node> entries = new TreeMap<>();
            archive.getContent().forEach((path, node) -> entries.put(path.get(), node));
            for (Map.Entry<String, Node> entry : entries.entrySet()) {
                digest.update(entry.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                if (entry.getValue().getAsset() != null) {
                    try (InputStream in = entry.getValue().getAsset().openStream()) {
                        digest.update(in.readAllBytes());
                    }
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
