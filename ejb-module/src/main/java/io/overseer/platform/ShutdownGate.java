package io.overseer.platform;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Graceful shutdown of this instance's work. Closes as soon as the JVM is asked to stop (SIGTERM, Ctrl-C,
 * {@code asadmin stop-domain}) or the application is undeployed. Once closed, schedulers here claim
 * nothing and agents start no new remote call (they hand their attempt back for another instance);
 * calls already under way may finish, for up to {@code overseer.shutdown-grace}.
 *
 * <p>A JVM shutdown hook, because on SIGTERM Payara Micro halts without undeploying the application
 * (no {@code @PreDestroy} runs): the JVM waits for its hooks, so waiting in ours is what gives calls under
 * way their grace. The hook reports on the process's own standard error: by then the server's logging
 * and {@code java.util.logging} (whose own hook closes every handler) may already be gone.
 */
@ApplicationScoped
public class ShutdownGate {

    private static final Logger LOG = Logger.getLogger(ShutdownGate.class.getName());

    @Inject
    @ConfigProperty(name = "overseer.shutdown-grace", defaultValue = "PT10S")
    Duration grace;

    private final Thread hook = new Thread(() -> drain(ShutdownGate::toStandardError), "overseer-shutdown-gate");
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

    @PreDestroy
    void undeployed() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook has run or is running: nothing to remove
        }
        drain(LOG::info);
    }

    /** Closes the gate and waits up to the grace period for the calls under way. */
    void drain(Consumer<String> report) {
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (this) {
            if (!closed) {
                closed = true;
                report.accept("Shutting down: no new work is taken; " + inFlight + " remote call(s) under way");
            }
            while (inFlight > 0 && System.nanoTime() < deadline) {
                try {
                    wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            report.accept(inFlight == 0 ? "Shutting down: no remote call under way"
                    : "Shutting down with " + inFlight + " remote call(s) still under way after " + grace
                            + ": their attempts expire at their complete-by and are retried under the same"
                            + " idempotency key");
        }
    }

    @SuppressWarnings("resource") // the process's standard error stays open; closing it is not ours to do
    private static void toStandardError(String line) {
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        err.println("[" + java.time.Instant.now() + "] [" + ShutdownGate.class.getName() + "] " + line);
    }
}
