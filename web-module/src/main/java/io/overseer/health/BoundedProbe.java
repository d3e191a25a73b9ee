package io.overseer.health;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * One round trip to a dependency, on a thread of its own, waited for at most {@link #TIMEOUT_MILLIS}.
 * Clients of a lost broker or a frozen database can block far longer (the broker client reconnects
 * without end), so the probe stops waiting and answers DOWN; while an earlier round trip is still
 * stuck, it answers DOWN at once instead of piling up threads.
 *
 * <p>Not a ManagedExecutorService: Payara runs health checks on a thread of its own health endpoint, and
 * a managed task submitted from there captures that thread's (absent) application context; for an
 * application not deployed at "/" Payara then aborted every task after the first (AbortedException,
 * readiness DOWN for good). The round trip needs no context: its resources are injected already.
 */
final class BoundedProbe {

    static final long TIMEOUT_MILLIS = 3000;

    private final String name;
    private final AtomicReference<Future<?>> inFlight = new AtomicReference<>();
    private final ClassLoader application = BoundedProbe.class.getClassLoader();
    private final ExecutorService executor;

    BoundedProbe(String name) {
        this.name = name;
        this.executor = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "readiness-" + name);
            thread.setDaemon(true);
            thread.setContextClassLoader(application);
            return thread;
        });
    }

    /** Stops the probe's thread when the application goes away. */
    void close() {
        executor.shutdownNow();
    }

    HealthCheckResponse run(Callable<Void> roundTrip) {
        Future<?> previous = inFlight.get();
        if (previous != null && !previous.isDone()) {
            return down("an earlier check is still waiting");
        }
        Future<?> attempt = executor.submit(roundTrip);
        inFlight.set(attempt);
        try {
            attempt.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            return HealthCheckResponse.up(name);
        } catch (TimeoutException e) {
            return down("no answer within " + TIMEOUT_MILLIS + " ms");
        } catch (ExecutionException e) {
            return down(e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return down("interrupted");
        }
    }

    private HealthCheckResponse down(String error) {
        return HealthCheckResponse.named(name).down().withData("error", error).build();
    }
}
