package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ledger shares forces between concurrent applies without weakening once-only or durability. */
class GroupCommitTest {

    private static final int THREADS = 64;
    private static final int KEYS_PER_THREAD = 200;
    // Below this a force is not a device sync (tmpfs: microseconds) and leaves nothing to share.
    private static final long REAL_SYNC_NANOS = 250_000;

    @TempDir
    Path dataDir;

    @Test
    void aLoneApplyPaysOneForceAndAReplayNone() throws Exception {
        try (EffectLedger ledger = EffectLedger.open(dataDir)) {
            ledger.apply("key-1", "order-1", "charge-payment");
            ledger.apply("key-2", "order-2", "charge-payment");
            assertEquals(2, ledger.journalForces());

            assertTrue(ledger.apply("key-1", "order-1", "charge-payment").replayed());
            assertEquals(2, ledger.journalForces());
        }
    }

    @Test
    void concurrentAppliesShareForcesApplyEachKeyOnceAndSurviveAReopen() throws Exception {
        // Thread t asks for its own keys and, in a random order at the same step, for those of
        // thread t-1: every key is requested twice, by two threads racing for it.
        long forceNanos = nanosPerForce(dataDir.resolve("probe"));
        Path dataDir = this.dataDir.resolve("concurrent");
        Map<String, List<ApplyResult>> resultsByKey = new HashMap<>();
        long elapsedNanos;
        long forces;
        try (EffectLedger ledger = EffectLedger.open(dataDir)) {
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<List<ApplyResult>>> workers = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int own = t;
                    int neighbour = Math.floorMod(t - 1, THREADS);
                    workers.add(pool.submit(() -> {
                        Random random = new Random(own);
                        List<ApplyResult> results = new ArrayList<>();
                        start.await();
                        for (int i = 0; i < KEYS_PER_THREAD; i++) {
                            boolean ownFirst = random.nextBoolean();
                            results.add(apply(ledger, ownFirst ? own : neighbour, i));
                            results.add(apply(ledger, ownFirst ? neighbour : own, i));
                        }
                        return results;
                    }));
                }
                long begin = System.nanoTime();
                start.countDown();
                for (Future<List<ApplyResult>> worker : workers) {
                    for (ApplyResult result : worker.get()) {
                        resultsByKey.computeIfAbsent(result.effect().idempotencyKey(), key -> new ArrayList<>())
                                .add(result);
                    }
                }
                elapsedNanos = System.nanoTime() - begin;
            } finally {
                pool.shutdownNow();
            }
            forces = ledger.journalForces();
            LedgerCounts counts = ledger.counts();
            int keys = THREADS * KEYS_PER_THREAD;
            assertEquals(keys, resultsByKey.size());
            assertEquals(keys, counts.applied());
            assertEquals(0, counts.appliedTwice());
            for (List<ApplyResult> results : resultsByKey.values()) {
                assertEquals(2, results.size());
                assertEquals(1, results.stream().filter(ApplyResult::replayed).count(), results.toString());
                assertEquals(results.get(0).effect(), results.get(1).effect());
            }
            // Informational only; the machine's disk and load decide these, so nothing asserts them.
            System.out.printf("GroupCommitTest: a lone force takes %d us; %d threads: %d applies and %d replays "
                            + "in %d ms (%.0f applies/s), %d forces (%.1f applies per force)%n",
                    forceNanos / 1000, THREADS, keys, keys, elapsedNanos / 1_000_000,
                    keys * 1e9 / elapsedNanos, forces, (double) keys / forces);
            if (forceNanos >= REAL_SYNC_NANOS) {
                assertTrue(forces * 4 < keys, "expected far fewer forces than applies, got " + forces);
            } else {
                System.out.println("GroupCommitTest: forces are nearly free on this file system (tmpfs?), "
                        + "so there is nothing to group; forces-per-apply not checked");
            }
        }

        try (EffectLedger reopened = EffectLedger.open(dataDir)) {
            Map<String, EffectRecord> stored = new HashMap<>();
            reopened.effects(null).forEach(effect -> stored.put(effect.idempotencyKey(), effect));
            assertEquals(resultsByKey.size(), stored.size());
            resultsByKey.forEach((key, results) -> assertEquals(results.get(0).effect(), stored.get(key)));
            assertEquals(0, reopened.counts().appliedTwice());
            ApplyResult again = reopened.apply(key(0, 0), order(0, 0), "charge-payment");
            assertTrue(again.replayed());
            assertEquals(resultsByKey.get(key(0, 0)).get(0).effect(), again.effect());
        }
    }

    /** Median time of writing a line and forcing it, on the file system that holds {@code dir}. */
    private static long nanosPerForce(Path dir) throws Exception {
        Files.createDirectories(dir);
        long[] samples = new long[21];
        try (FileChannel channel = FileChannel.open(dir.resolve("probe"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            for (int i = 0; i < samples.length; i++) {
                long begin = System.nanoTime();
                channel.write(ByteBuffer.wrap("probe\n".getBytes(StandardCharsets.US_ASCII)));
                channel.force(false);
                samples[i] = System.nanoTime() - begin;
            }
        }
        Arrays.sort(samples);
        return samples[samples.length / 2];
    }

    private static ApplyResult apply(EffectLedger ledger, int thread, int i) throws Exception {
        return ledger.apply(key(thread, i), order(thread, i), "charge-payment");
    }

    private static String key(int thread, int i) {
        return order(thread, i) + "/charge-payment";
    }

    private static String order(int thread, int i) {
        return "order-" + thread + "-" + i;
    }
}
