package io.overseer.remoteservice;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per operation: how many calls were in flight at once at most, and how many started in the busiest
 * calendar second — what a client's flow limits promise the service ({@code GET /traffic}) — and in which
 * tenth of their second the calls arrived, which shows how a client paces its starts within a second. In
 * memory, cleared by {@code DELETE /traffic}.
 */
final class OperationTraffic {

    /** What {@code GET /traffic} shows for one operation. */
    record View(long starts, int maxInFlight, int maxStartsPerSecond, long[] startsByTenthOfSecond) {
    }

    private static final class Counts {
        private final AtomicInteger inFlight = new AtomicInteger();
        private long starts;
        private int maxInFlight;
        private long second = -1;
        private int startsThisSecond;
        private int maxStartsPerSecond;
        private final long[] byTenth = new long[10];

        synchronized void enter(long epochMilli) {
            long epochSecond = Math.floorDiv(epochMilli, 1000);
            byTenth[(int) (Math.floorMod(epochMilli, 1000) / 100)]++;
            starts++;
            maxInFlight = Math.max(maxInFlight, inFlight.incrementAndGet());
            if (epochSecond != second) {
                second = epochSecond;
                startsThisSecond = 0;
            }
            maxStartsPerSecond = Math.max(maxStartsPerSecond, ++startsThisSecond);
        }

        void leave() {
            inFlight.decrementAndGet();
        }

        synchronized View view() {
            return new View(starts, maxInFlight, maxStartsPerSecond, byTenth.clone());
        }
    }

    private final Map<String, Counts> byOperation = new ConcurrentHashMap<>();

    void enter(String operation) {
        byOperation.computeIfAbsent(operation, op -> new Counts()).enter(System.currentTimeMillis());
    }

    void leave(String operation) {
        Counts counts = byOperation.get(operation);
        if (counts != null) {
            counts.leave();
        }
    }

    Map<String, View> view() {
        Map<String, View> views = new TreeMap<>();
        byOperation.forEach((operation, counts) -> views.put(operation, counts.view()));
        return views;
    }

    void clear() {
        byOperation.clear();
    }
}
