package io.overseer.api;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Failed logins by key (a user name, a client address), and how long a key must wait before its next
 * attempt. Below {@link Policy#maxFailures()} nothing waits; the failure that reaches it imposes
 * {@link Policy#firstWait()}, each further one twice the last, up to {@link Policy#maxWait()}. An attempt
 * made while a key waits is refused without being counted, so a guesser gets about one guess per
 * {@code maxWait} however fast it tries, and the real user is held up only while someone keeps failing for
 * it (never locked out for good). A key that has not failed for {@link Policy#forgetAfter()} starts afresh;
 * a successful login forgets its user's failures.
 *
 * <p>Held in memory per instance, at most {@link #MAX_KEYS} keys (stale ones are dropped first, then others
 * not waiting): a guesser rotating through names cannot grow it without bound. Time is read from
 * {@code nanos} (a test's clock).
 */
final class LoginThrottle {

    static final int MAX_KEYS = 50_000;

    record Policy(int maxFailures, long firstWaitMillis, long maxWaitMillis, long forgetAfterMillis) {
        Policy {
            if (maxFailures < 1 || firstWaitMillis < 1 || maxWaitMillis < firstWaitMillis || forgetAfterMillis < maxWaitMillis) {
                throw new IllegalArgumentException("a login policy needs maxFailures ≥ 1 and 0 < firstWait ≤ maxWait"
                        + " ≤ forgetAfter: " + this);
            }
        }
    }

    private static final class Failures {
        int count;
        long lastNanos;
        long waitUntilNanos;
    }

    private final Map<String, Failures> failures = new ConcurrentHashMap<>();
    private final LongSupplier nanos;

    LoginThrottle(LongSupplier nanos) {
        this.nanos = nanos;
    }

    /** How many milliseconds {@code key} must still wait before an attempt is heard; 0 if none. */
    long waitMillis(String key) {
        Failures entry = failures.get(key);
        if (entry == null) {
            return 0;
        }
        synchronized (entry) {
            return remaining(entry, nanos.getAsLong());
        }
    }

    /**
     * Counts a failed attempt of {@code key} — unless it was made while the key waits — and returns how
     * many milliseconds the key must now wait (0 if none).
     */
    long failed(String key, Policy policy) {
        long now = nanos.getAsLong();
        if (failures.size() >= MAX_KEYS && !failures.containsKey(key)) {
            makeRoom(now, policy);
        }
        Failures entry = failures.computeIfAbsent(key, k -> new Failures());
        synchronized (entry) {
            long waiting = remaining(entry, now);
            if (waiting > 0) {
                return waiting;
            }
            if (entry.count > 0 && now - entry.lastNanos >= TimeUnit.MILLISECONDS.toNanos(policy.forgetAfterMillis())) {
                entry.count = 0;
            }
            entry.count++;
            entry.lastNanos = now;
            if (entry.count < policy.maxFailures()) {
                return 0;
            }
            int doublings = Math.min(entry.count - policy.maxFailures(), 30);
            long wait = Math.min(policy.firstWaitMillis() << doublings, policy.maxWaitMillis());
            entry.waitUntilNanos = now + TimeUnit.MILLISECONDS.toNanos(wait);
            return wait;
        }
    }

    /** The key proved itself (a user that logged in): its failures are forgotten. */
    void succeeded(String key) {
        failures.remove(key);
    }

    int size() {
        return failures.size();
    }

    private static long remaining(Failures entry, long now) {
        long left = entry.waitUntilNanos - now;
        return left > 0 ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)) : 0;
    }

    /**
     * Drops the stale keys, then others that are not waiting (in the table's order, which is not by age:
     * a guesser who filled the table loses some of its own keys, which is no gain to it), until a tenth
     * of the table is free, so that this full pass runs once per many new keys.
     */
    private void makeRoom(long now, Policy policy) {
        long forget = TimeUnit.MILLISECONDS.toNanos(policy.forgetAfterMillis());
        failures.values().removeIf(entry -> {
            synchronized (entry) {
                return now - entry.lastNanos >= forget && remaining(entry, now) == 0;
            }
        });
        Iterator<Map.Entry<String, Failures>> oldest = failures.entrySet().iterator();
        while (failures.size() >= MAX_KEYS - MAX_KEYS / 10 && oldest.hasNext()) { // a tenth free: not at every failure
            Map.Entry<String, Failures> next = oldest.next();
            synchronized (next.getValue()) {
                if (remaining(next.getValue(), now) == 0) {
                    oldest.remove();
                }
            }
        }
    }
}
