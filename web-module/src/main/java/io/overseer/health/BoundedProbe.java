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
            Thread thread = new Thread(task, "health-" + name);
            thread.setDaemon(true);
            thread.setContextClassLoader(application);
            return thread;
        });
    }

    /** Stops the probe's thread when the application goes away. */
    void close() {
        executor.shutdownNow();
    }

    /** UP if the round trip succeeded within the bound, DOWN with the reason otherwise. */
    HealthCheckResponse run(Callable<Void> roundTrip) {
        Answer answer = attempt(roundTrip);
        if (answer.succeeded()) {
            return HealthCheckResponse.up(name);
        }
        return HealthCheckResponse.named(name).down().withData("error", answer.error()).build();
    }

    /** Makes the round trip, unless the last one is still under way, and waits for it within the bound. */
    Answer attempt(Callable<Void> roundTrip) {
        Future<?> previous = inFlight.get();
        if (previous != null && !previous.isDone()) {
            return Answer.none("an earlier check is still waiting");
        }
        Future<?> attempt = executor.submit(roundTrip);
        inFlight.set(attempt);
        try {
            attempt.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            return new Answer(true, null);
        } catch (TimeoutException e) {
            return Answer.none("no answer within " + TIMEOUT_MILLIS + " ms");
        } catch (ExecutionException e) {
            return new Answer(true, e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.none("interrupted");
        }
    }

    /**
     * What came back within the bound: {@code inTime} if the round trip ended (well or with an error),
     * {@code error} the failure's kind or why nothing came back, null if it succeeded.
     */
    record Answer(boolean inTime, String error) {

        static Answer none(String why) {
            return new Answer(false, why);
        }

        boolean succeeded() {
            return inTime && error == null;
        }
    }
}
