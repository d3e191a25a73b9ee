package io.overseer.launcher;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restarts the application server when its process dies while the stack runs, as a service manager would
 * in production: the "infrastructure restarts crashed components" that the Scheduler Agent Supervisor
 * pattern assumes. Not the pattern's Supervisor (io.overseer.supervisor, in the application), which
 * recovers work, not processes. Backoff starts at 2 s and doubles to 30 s; it resets once an instance has
 * stayed up for a minute.
 *
 * <p>With several instances each has a watchdog of its own: one that dies is restarted alone, and the
 * others keep serving meanwhile (its claimed work is theirs once its complete-by passes; see
 * docs/instances.md). The launcher itself stops only on Ctrl-C or SIGTERM, never because an instance died.
 */
public final class AppServerWatchdog {

    private static final Logger LOG = LoggerFactory.getLogger(AppServerWatchdog.class);
    static final Duration INITIAL_BACKOFF = Duration.ofSeconds(2);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    static final Duration STABLE_AFTER = Duration.ofSeconds(60);

    private final AppServerNode node;
    private final Thread thread;
    private volatile boolean running;
    private volatile int restarts;

    public AppServerWatchdog(AppServerNode node) {
        this.node = node;
        this.thread = new Thread(this::loop, AppServerNode.DEFAULT_NAME.equals(node.name())
                ? "overseer-watchdog" : "overseer-watchdog-" + node.name());
        this.thread.setDaemon(true);
    }

    public void start() {
        running = true;
        thread.start();
    }

    /** Must be called before the node is stopped on purpose, or the stop would look like a crash. */
    public void stop() {
        running = false;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How many times the server was restarted after a crash. */
    public int restarts() {
        return restarts;
    }

    private void loop() {
        Duration backoff = INITIAL_BACKOFF;
        long upSince = System.nanoTime();
        boolean lastStartOk = true; // the Stack started the first instance
        while (running) {
            ManagedProcess p = node.process();
            if (p != null) {
                try {
                    p.onExit().get();
                } catch (InterruptedException e) {
                    return; // stop() interrupts us
                } catch (Exception e) {
                    LOG.debug("waiting for {} to exit: {}", node.label(), e.toString());
                }
            }
            if (!running) {
                return;
            }
            if (lastStartOk && System.nanoTime() - upSince > STABLE_AFTER.toNanos()) {
                backoff = INITIAL_BACKOFF;
            }
            LOG.warn("{} {} (exit code {}); restarting in {} s. Last log lines:\n{}", node.label(),
                    p == null ? "is not running" : "died", p == null ? "-" : p.exitValueOr(-1),
                    backoff.toSeconds(), p == null ? "" : p.tail(15));
            try {
                Thread.sleep(backoff.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            if (!running) {
                return;
            }
            try {
                node.start();
                restarts++;
                upSince = System.nanoTime();
                lastStartOk = true;
                LOG.info("{} restarted (restart #{})", node.label(), restarts);
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                lastStartOk = false;
                LOG.error("Restarting {} failed: {}", node.label(), e.getMessage());
                node.kill9(); // a half-started instance must not hold the port for the next try
            }
        }
    }
}
