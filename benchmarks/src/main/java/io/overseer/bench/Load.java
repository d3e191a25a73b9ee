package io.overseer.bench;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Submits n orders from {@code clients} threads, either as fast as they go (rate 0) or paced at a fixed
 * rate (order i is handed to a free client at t0 + i/rate). Records what was accepted and the first failure.
 */
final class Load {

    @FunctionalInterface
    interface Submitter {
        /** Submits order number i; returns its order id when the channel answers one, else null. */
        String submit(int i) throws Exception;
    }

    record Result(int submitted, double seconds, List<String> acceptedIds, int failures, String firstFailure) {
        double perSecond() {
            return submitted / seconds;
        }
    }

    private Load() {
    }

    static Result run(int n, int clients, double rate, Submitter submitter) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        ConcurrentLinkedQueue<String> ids = new ConcurrentLinkedQueue<>();
        AtomicInteger failures = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        Runnable[] tasks = new Runnable[n];
        for (int i = 0; i < n; i++) {
            int index = i;
            tasks[i] = () -> {
                try {
                    String id = submitter.submit(index);
                    if (id != null) {
                        ids.add(id);
                    }
                } catch (Exception e) {
                    failures.incrementAndGet();
                    firstFailure.compareAndSet(null, e.toString());
                }
            };
        }
        long t0 = System.nanoTime();
        if (rate <= 0) {
            AtomicInteger next = new AtomicInteger();
            for (int c = 0; c < clients; c++) {
                pool.execute(() -> {
                    for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                        tasks[i].run();
                    }
                });
            }
        } else {
            double intervalNanos = 1e9 / rate;
            for (int i = 0; i < n; i++) {
                long due = t0 + (long) (i * intervalNanos);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                pool.execute(tasks[i]);
            }
        }
        pool.shutdown();
        if (!pool.awaitTermination(30, TimeUnit.MINUTES)) {
            pool.shutdownNow();
            throw new IllegalStateException("submissions still running after 30 min");
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Result(n, seconds, List.copyOf(ids), failures.get(), firstFailure.get());
    }
}
