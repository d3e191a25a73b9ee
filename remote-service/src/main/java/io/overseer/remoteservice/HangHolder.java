package io.overseer.remoteservice;

import com.sun.net.httpserver.HttpExchange;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Parks the handler threads of hanging requests. The JDK server cannot tell us when a client gives up,
 * so an exchange is held until {@link #MAX_HOLD}, until the fault rules are cleared, or until shutdown,
 * and is then closed without any response.
 */
final class HangHolder {

    static final Duration MAX_HOLD = Duration.ofMinutes(10);
    private static final System.Logger LOG = System.getLogger(HangHolder.class.getName());

    private final AtomicInteger held = new AtomicInteger();
    // Swapped on every release so that later hangs wait on a fresh latch.
    private volatile CountDownLatch release = new CountDownLatch(1);
    private volatile boolean closed;

    void hold(HttpExchange exchange) {
        CountDownLatch latch = release;
        held.incrementAndGet();
        try {
            if (!closed) {
                latch.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            held.decrementAndGet();
            // Without sendResponseHeaders this drops the connection: the client sees no answer at all.
            exchange.close();
        }
    }

    /** Lets every held exchange go (their connections close unanswered). */
    void releaseAll() {
        CountDownLatch previous = release;
        release = new CountDownLatch(1);
        previous.countDown();
        int count = held.get();
        if (count > 0) {
            LOG.log(Level.INFO, "Released {0} hanging requests without an answer", count);
        }
    }

    void close() {
        closed = true;
        releaseAll();
    }
}
