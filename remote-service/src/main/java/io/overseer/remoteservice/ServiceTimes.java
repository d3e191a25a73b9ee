package io.overseer.remoteservice;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The simulator's own time per call, per operation, measured inside its handler (from the handler's first
 * line to the answer written), so that a benchmark can tell the service's share of a call from its
 * caller's: count and total are exact, so a caller that reads them before and after a run subtracts the
 * difference; percentiles come from a histogram with eight buckets per power of two (within 1/8 of the
 * true value). In memory, since start or the last {@code DELETE /effects}.
 */
final class ServiceTimes {

    /** What {@code GET /stats} shows for one operation, in milliseconds. */
    @JsonPropertyOrder({"count", "totalMs", "meanMs", "p50Ms", "p99Ms", "maxMs"})
    record View(long count, double totalMs, double meanMs, double p50Ms, double p99Ms, double maxMs) {
    }

    private final Map<String, Histogram> byOperation = new ConcurrentHashMap<>();

    void record(String operation, long nanos) {
        byOperation.computeIfAbsent(operation, op -> new Histogram()).record(nanos);
    }

    Map<String, View> view() {
        Map<String, View> views = new TreeMap<>();
        byOperation.forEach((operation, histogram) -> views.put(operation, histogram.view()));
        return views;
    }

    void clear() {
        byOperation.clear();
    }

    /** Microsecond buckets: exact below 16 µs, then eight per power of two. Lock-free: handlers only add. */
    static final class Histogram {
        private static final int SUB = 8;
        private static final int BUCKETS = 16 + (63 - 4) * SUB;
        private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
        private final LongAdder count = new LongAdder();
        private final LongAdder totalNanos = new LongAdder();
        private final AtomicLong maxNanos = new AtomicLong();

        void record(long nanos) {
            long n = Math.max(0, nanos);
            counts.incrementAndGet(bucket(n / 1000));
            count.increment();
            totalNanos.add(n);
            maxNanos.accumulateAndGet(n, Math::max);
        }

        static int bucket(long micros) {
            if (micros < 16) {
                return (int) micros;
            }
            int exponent = 63 - Long.numberOfLeadingZeros(micros); // >= 4
            int sub = (int) (micros >>> (exponent - 3)) & (SUB - 1);
            return 16 + (exponent - 4) * SUB + sub;
        }

        /** The middle of a bucket, in microseconds. */
        static double middle(int bucket) {
            if (bucket < 16) {
                return bucket;
            }
            int exponent = (bucket - 16) / SUB + 4;
            int sub = (bucket - 16) % SUB;
            double width = Math.pow(2, exponent - 3);
            return (SUB + sub) * width + width / 2;
        }

        View view() {
            long[] snapshot = new long[BUCKETS];
            long n = 0;
            for (int i = 0; i < BUCKETS; i++) {
                snapshot[i] = counts.get(i);
                n += snapshot[i];
            }
            long total = totalNanos.sum();
            long calls = count.sum();
            return new View(calls, total / 1e6, calls == 0 ? 0 : total / 1e6 / calls,
                    percentile(snapshot, n, 0.50), percentile(snapshot, n, 0.99), maxNanos.get() / 1e6);
        }

        private static double percentile(long[] snapshot, long n, double q) {
            if (n == 0) {
                return 0;
            }
            long rank = Math.max(1, (long) Math.ceil(q * n));
            long seen = 0;
            for (int i = 0; i < snapshot.length; i++) {
                seen += snapshot[i];
                if (seen >= rank) {
                    return middle(i) / 1000;
                }
            }
            return middle(snapshot.length - 1) / 1000;
        }
    }
}
