package io.overseer.bench.ceilings;

import io.overseer.bench.ProcessCpu;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ceilings' load: {@code clients} loops, each sending its next request as soon as the last one is answered,
 * for a number of seconds, with the server process's CPU read before and after. A request that gets an answer it
 * does not expect throws, and fails the measurement.
 */
final class ClosedLoop {

    /** What a load measured: answers, seconds, and the server's CPU-ms over them. */
    record Measured(long answers, double seconds, double serverCpuMs) {
    }

    private ClosedLoop() {
    }

    /** Runs {@code request} (one request, checked; throws on a wrong answer) in {@code clients} loops. */
    static Measured run(long pid, int seconds, int clients, Callable<Void> request) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong answers = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> loops = new ArrayList<>();
        long cpu0 = ProcessCpu.ticks(pid, false);
        long t0 = System.nanoTime();
        for (int i = 0; i < clients; i++) {
            loops.add(pool.submit(() -> {
                while (!stop.get()) {
                    request.call();
                    answers.incrementAndGet();
                }
                return null;
            }));
        }
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        try {
            for (Future<?> loop : loops) {
                loop.get(); // a failed loop fails the measurement
            }
        } finally {
            pool.shutdownNow();
        }
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long cpu1 = ProcessCpu.ticks(pid, false);
        if (cpu0 < 0 || cpu1 < 0) {
            throw new IllegalStateException("the server process " + pid + " is gone");
        }
        return new Measured(answers.get(), elapsed, (cpu1 - cpu0) * 1000.0 / ProcessCpu.TICKS_PER_SECOND);
    }
}
