package io.overseer.remoteservice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * A rough, JMH-free measure of ledger applies per second with 1 and with many threads, each apply
 * a distinct key (so each one appends and waits for durability). Run by hand, not by the build:
 * the figures depend on the disk and on whatever else the machine is doing, so nothing asserts them.
 *
 * <pre>java -cp target/classes:target/test-classes:$(deps) io.overseer.remoteservice.LedgerThroughput [threads...]</pre>
 */
public final class LedgerThroughput {

    private static final int ROUNDS = 3;
    private static final long ROUND_NANOS = 3_000_000_000L;

    private LedgerThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int[] threadCounts = args.length == 0 ? new int[] {1, 64}
                : Stream.of(args).mapToInt(Integer::parseInt).toArray();
        Path dir = Files.createTempDirectory("ledger-throughput");
        try {
            System.out.println("data dir " + dir + " (" + Files.getFileStore(dir).type() + "), "
                    + Runtime.getRuntime().availableProcessors() + " processors");
            for (int threads : threadCounts) {
                for (int round = 1; round <= ROUNDS; round++) {
                    System.out.printf("threads=%d round=%d: %s%n", threads, round, measure(dir, threads));
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** Applies distinct keys from {@code threads} threads for a fixed time; says how many per second. */
    private static String measure(Path dir, int threads) throws Exception {
        Path dataDir = Files.createTempDirectory(dir, "round");
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (EffectLedger ledger = EffectLedger.open(dataDir)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Long>> workers = new ArrayList<>();
            long[] deadline = new long[1];
            for (int t = 0; t < threads; t++) {
                int thread = t;
                workers.add(pool.submit(() -> {
                    start.await();
                    long done = 0;
                    while (System.nanoTime() < deadline[0]) {
                        String order = "order-" + thread + "-" + done;
                        ledger.apply(order + "/charge-payment", order, "charge-payment");
                        done++;
                    }
                    return done;
                }));
            }
            long begin = System.nanoTime();
            deadline[0] = begin + ROUND_NANOS;
            start.countDown();
            long total = 0;
            for (Future<Long> worker : workers) {
                total += worker.get();
            }
            long elapsed = System.nanoTime() - begin;
            return String.format("%d applies in %d ms = %.0f applies/s", total, elapsed / 1_000_000,
                    total * 1e9 / elapsed);
        } finally {
            pool.shutdownNow();
        }
    }
}
