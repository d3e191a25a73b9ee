package io.overseer.health;

import jakarta.enterprise.concurrent.ManagedExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * One round trip to a dependency, on a managed thread, waited for at most {@link #TIMEOUT_MILLIS}.
 * Clients of a lost broker or a frozen database can block far longer (the broker client reconnects
 * without end), so the probe stops waiting and answers DOWN; while an earlier round trip is still
 * stuck, it answers DOWN at once instead of piling up threads.
 */
final class BoundedProbe {

    static final long TIMEOUT_MILLIS = 3000;

    private final String name;
    private final AtomicReference<Future<?>> inFlight = new AtomicReference<>();

    BoundedProbe(String name) {
        this.name = name;
    }

    HealthCheckResponse run(ManagedExecutorService executor, Callable<Void> roundTrip) {
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
