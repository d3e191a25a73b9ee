package io.overseer.platform;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Graceful shutdown of this instance's work. Closes as soon as the JVM is asked to stop (SIGTERM, Ctrl-C,
 * {@code asadmin stop-domain}) — a shutdown hook, because the application is only told much later, once
 * the server undeploys it — or when the application is undeployed. Once closed, schedulers here claim
 * nothing and agents start no new remote call (they hand their attempt back for another instance);
 * calls already under way finish, and undeployment waits up to {@code overseer.shutdown-grace} for them.
 */
@ApplicationScoped
public class ShutdownGate {

    private static final Logger LOG = Logger.getLogger(ShutdownGate.class.getName());

    @Inject
    @ConfigProperty(name = "overseer.shutdown-grace", defaultValue = "PT10S")
    Duration grace;

    private final Thread hook = new Thread(this::close, "overseer-shutdown-gate");
    private boolean closed;
    private int inFlight;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Whether this instance still takes new work. */
    public synchronized boolean isOpen() {
        return !closed;
    }

    /** Registers a remote call about to start; false (and nothing registered) once the gate is closed. */
    public synchronized boolean enter() {
        if (closed) {
            return false;
        }
        inFlight++;
        return true;
    }

    /** The call registered by {@link #enter()} is over. */
    public synchronized void exit() {
        inFlight--;
        notifyAll();
    }

    synchronized void close() {
        if (!closed) {
            closed = true;
            LOG.log(Level.INFO, "Shutting down: no new work is taken; {0} remote call(s) under way", inFlight);
        }
    }

    @PreDestroy
    void drain() {
        close();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook has run or is running: nothing to remove
        }
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (this) {
            while (inFlight > 0 && System.nanoTime() < deadline) {
                try {
                    wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (inFlight > 0) {
                LOG.log(Level.WARNING, "Shutting down with {0} remote call(s) still under way after {1}: their "
                        + "attempts expire at their complete-by and the supervisor retries them under the same "
                        + "idempotency key", new Object[] {inFlight, grace});
            } else {
                LOG.info("Shutting down: no remote call under way");
            }
        }
    }
}
