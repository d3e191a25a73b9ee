package io.overseer.remoteservice;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The remote-service simulator: an unreliable remote service with a durable effect ledger.
 * Run it with {@link #main}, or embed it with {@link #start} (tests do).
 */
public final class RemoteServiceSimulator implements AutoCloseable {

    /**
     * The JDK server's switch for TCP_NODELAY on accepted connections, off by default. Without it an answer
     * written as two segments (headers, then body) meets the caller's delayed ACK: Nagle holds the body
     * until the headers are acknowledged, about 40 ms later. Every call from java.net.http.HttpClient (the
     * agents', the peers') took 48 ms at the median with 10 callers; curl, which ACKs at once, 5-7 ms.
     */
    static final String NODELAY = "sun.net.httpserver.nodelay";

    static {
        // Before the first logger exists, or the console format is already fixed.
        SimulatorLogging.configureConsole();
        // Read once, when the JDK server's configuration class loads: so before any HttpServer exists in this
        // JVM. An explicit -D setting wins (false to reproduce the old behaviour).
        if (System.getProperty(NODELAY) == null) {
            System.setProperty(NODELAY, "true");
        }
    }

    private static final System.Logger LOG = System.getLogger(RemoteServiceSimulator.class.getName());
    // Hanging requests each park a thread, so the pool must be far larger than the real load.
    private static final int MAX_HANDLER_THREADS = 2048;
    private static final int BACKLOG = 1024;
    private static final long DRAIN_MILLIS = 1_000;

    private final HttpServer server;
    private final ExecutorService executor;
    private final EffectLedger ledger;
    private final HangHolder hangs;
    private final SimulatorRoutes routes;
    private final URI baseUri;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RemoteServiceSimulator(HttpServer server, ExecutorService executor, EffectLedger ledger,
                                   HangHolder hangs, SimulatorRoutes routes, String host) {
        this.server = server;
        this.executor = executor;
        this.ledger = ledger;
        this.hangs = hangs;
        this.routes = routes;
        String uriHost = host.contains(":") ? "[" + host + "]" : host;
        this.baseUri = URI.create("http://" + uriHost + ":" + server.getAddress().getPort());
    }

    /**
     * Opens the ledger in {@code dataDir} and starts serving on {@code host:port} (port 0 picks a free one).
     *
     * @throws IllegalStateException if the journal is damaged beyond a torn last line
     */
    public static RemoteServiceSimulator start(String host, int port, Path dataDir) throws IOException {
        EffectLedger ledger = EffectLedger.open(dataDir);
        ExecutorService executor = handlerPool();
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(host, port), BACKLOG);
            HangHolder hangs = new HangHolder();
            FaultInjector faults = new FaultInjector();
            RequestCounters counters = new RequestCounters();
            SimulatorRoutes routes = new SimulatorRoutes(
                    new OperationHandler(ledger, faults, hangs, counters),
                    new AdminHandlers(ledger, faults, hangs, counters));
            server.createContext("/", routes);
            server.setExecutor(executor);
            server.start();
            RemoteServiceSimulator simulator =
                    new RemoteServiceSimulator(server, executor, ledger, hangs, routes, host);
            LOG.log(Level.INFO, "Remote-service simulator listening on {0}", simulator.baseUri());
            return simulator;
        } catch (IOException | RuntimeException e) {
            executor.shutdownNow();
            ledger.close();
            throw e;
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI baseUri() {
        return baseUri;
    }

    /** Stops serving: hanging requests are dropped, requests in flight get a moment, the journal is closed. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        hangs.close();
        boolean interrupted = !drain();
        // After draining, stop(0): stop(n) on JDK 17 idles for the full n seconds while keep-alive
        // connections are open, which would make every restart slow.
        server.stop(0);
        executor.shutdown();
        interrupted |= !awaitTermination();
        try {
            ledger.close();
        } catch (IOException e) {
            LOG.log(Level.ERROR, "Could not close the effect journal cleanly", e);
        }
        LOG.log(Level.INFO, "Remote-service simulator on {0} stopped", baseUri);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) {
        SimulatorOptions options;
        try {
            options = SimulatorOptions.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(SimulatorOptions.usage());
            System.exit(2);
            return;
        }
        if (options == null) {
            System.out.print(SimulatorOptions.usage());
            return;
        }
        try {
            RemoteServiceSimulator simulator = start(options.host(), options.port(), options.dataDir());
            Runtime.getRuntime().addShutdownHook(new Thread(simulator::close, "simulator-shutdown"));
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "Remote-service simulator failed to start: " + e.getMessage(), e);
            System.exit(1);
        }
    }

    /** Gives requests in flight a moment to finish; false if interrupted while waiting. */
    private boolean drain() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
        try {
            while (routes.inFlight() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /** Interrupts handlers that outlive the grace period; false if interrupted while waiting. */
    private boolean awaitTermination() {
        try {
            if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
            return true;
        } catch (InterruptedException e) {
            executor.shutdownNow();
            return false;
        }
    }

    private static ExecutorService handlerPool() {
        AtomicInteger count = new AtomicInteger();
        // Daemon threads: a parked hang must never keep the JVM alive after the server stopped.
        ThreadPoolExecutor pool = new ThreadPoolExecutor(8, MAX_HANDLER_THREADS, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "simulator-http-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        return pool;
    }
}
