package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The application server with the Overseer application, whichever {@link AppRuntime} runs it: what the
 * Stack, the {@link AppServerWatchdog}, the summary, the chaos runner, the benchmarks and the system tests
 * use. A runtime's node says how to launch its server ({@link #launch(AppServerConfig, List)}) and, if it
 * must, how to configure the running server ({@link #configure}); start() then waits until the
 * application's own readiness checks answer UP, the same for every runtime, and the one process it
 * launched is what stop(), kill9() and pid() ({@link ProcessNode}) act on, so that process must be the
 * server's JVM itself.
 */
public abstract class AppServerNode extends ProcessNode {

    public static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    /** The application's own readiness check, by name: present in every answer once it is deployed. */
    protected static final String APPLICATION_CHECK = "\"application\"";
    /**
     * The name the application is deployed under on the Payara runtimes (Payara Micro takes it from
     * overseer.war); server-config's http-open.asadmin opens the port only once it exists.
     */
    static final String APPLICATION = "overseer";
    /** Payara's answer to a `set` of a name that does not resolve: http-open.asadmin kept the port closed. */
    static final String NOT_DEPLOYED = "No configuration found for applications.application." + APPLICATION;

    /** The single instance's name, and the first of several. */
    public static final String DEFAULT_NAME = "payara";

    private final AppRuntime runtime;
    protected final StackLayout layout;
    private final String name;
    private final String label;
    protected final Path workDir;
    private volatile AppServerConfig config;
    private final List<RealmUser> users = new CopyOnWriteArrayList<>();

    /**
     * Log lines name the first instance by its runtime ("Payara Micro"), others with their name appended.
     * stop() gives the server 30 s after SIGTERM to undeploy and close its pools before SIGKILL.
     */
    protected AppServerNode(AppRuntime runtime, StackLayout layout, String name, Path workDir, Path logFile,
                            AppServerConfig config) {
        super(logFile, Duration.ofSeconds(30));
        this.runtime = runtime;
        this.layout = layout;
        this.name = name;
        this.label = name.equals(runtime.instanceBaseName()) ? runtime.label() : runtime.label() + " " + name;
        this.workDir = workDir.toAbsolutePath().normalize();
        this.config = config;
    }

    public AppRuntime runtime() {
        return runtime;
    }

    @Override
    public String name() {
        return name;
    }

    /** "Payara Micro", or "Payara Micro payara-2" for the second instance: how log lines name it. */
    @Override
    public String label() {
        return label;
    }

    /** Launches under the lock, waits outside it, so stop() can interrupt a start that hangs. */
    @Override
    protected final String awaitReady(ManagedProcess p, long logStart) throws IOException {
        configure(p);
        String readyUrl = healthUrl() + "/ready";
        // Payara answers UP with no checks at all once any application (the resource adapter) has started:
        // ready means the application's own checks are in the answer, and UP (docs/health.md).
        // One GET per poll: the answer that is not yet ready also tells whether the deployment failed.
        AtomicReference<Wait.Answer> last = new AtomicReference<>();
        Wait.until(label, READY_TIMEOUT, () -> {
            last.set(Wait.httpGet(readyUrl));
            return last.get() != null && last.get().okContaining(APPLICATION_CHECK);
        }, () -> stillStarting(p, last.get(), () -> LogTail.since(logFile(), logStart)), () -> p.tail(60));
        return "ready at " + baseUrl();
    }

    /**
     * A server whose application failed to deploy keeps running without it (Payara Micro even opens its HTTP
     * port and answers 404 to everything); it will not become ready, so the start fails now instead of after
     * {@link #READY_TIMEOUT}, and whoever started it (the launcher's watchdog) kills and restarts it. Seen
     * when an instance started while PostgreSQL was down: the persistence unit logs in while it deploys.
     */
    private boolean stillStarting(ManagedProcess p, Wait.Answer readiness, Supplier<String> log) {
        if (applicationFailedToDeploy(readiness, log)) {
            throw new IllegalStateException(label + ": the application failed to deploy (the server runs without"
                    + " it). Last log lines:\n" + p.tail(60));
        }
        return p.isAlive();
    }

    /**
     * Whether the server finished deploying without the application, from this readiness answer (not a
     * ready one; null while nothing answers) or what this start has logged. False unless a runtime can tell:
     * then it stays not ready, and the start fails after {@link #READY_TIMEOUT}.
     */
    protected boolean applicationFailedToDeploy(Wait.Answer readiness, Supplier<String> log) {
        return false;
    }

    /** With the settings and realm users as they are now: both take effect at the next start. */
    @Override
    protected final ManagedProcess launch() throws IOException {
        return launch(config, users);
    }

    /**
     * Prepares the server's files and starts its JVM, not waiting for it; called with no server running.
     * The process returned must be the server JVM itself: kill9() and pid() act on it.
     */
    protected abstract ManagedProcess launch(AppServerConfig config, List<RealmUser> users) throws IOException;

    /**
     * After launch, before the readiness wait, outside the lock: a runtime that configures and deploys
     * through its running server's admin interface does it here. Nothing by default.
     */
    protected void configure(ManagedProcess process) throws IOException {
    }

    /** The realm users added so far. */
    protected List<RealmUser> realmUsers() {
        return List.copyOf(users);
    }

    /** Adds a user of the server's file realm; takes effect at the next start or restart. */
    public void addRealmUser(RealmUser user) {
        users.add(user);
    }

    /** Takes effect at the next start or restart. */
    public void reconfigure(AppServerConfig newConfig) {
        this.config = newConfig;
    }

    public AppServerConfig config() {
        return config;
    }

    public int port() {
        return config.httpPort();
    }

    /** http://127.0.0.1:PORT (or the bind address), no trailing slash; the API is under /api. */
    public String baseUrl() {
        AppServerConfig c = config;
        return "http://" + (c.bindAddress() == null ? "127.0.0.1" : c.bindAddress()) + ":" + c.httpPort();
    }

    /**
     * Where MicroProfile Health answers ({@code /health}; {@code /ready} and {@code /live} below it): beside
     * the application on Payara, on the management port on WildFly.
     */
    public String healthUrl() {
        return baseUrl() + "/health";
    }
}
