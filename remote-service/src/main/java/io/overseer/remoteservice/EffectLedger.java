package io.overseer.remoteservice;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The durable record of every effect the remote service applied, indexed by idempotency key and by
 * (order, operation). Its {@code appliedTwice} count is the number the whole project must keep at 0.
 */
final class EffectLedger implements Closeable {

    private static final System.Logger LOG = System.getLogger(EffectLedger.class.getName());
    // Striped key locks: same key always meets the same lock, different keys rarely wait on each other.
    private static final int KEY_STRIPES = 256;

    private final Object[] keyLocks = new Object[KEY_STRIPES];
    // Appliers share the read side; clearing the ledger takes the write side.
    private final ReadWriteLock clearLock = new ReentrantReadWriteLock();
    private final Map<String, EffectRecord> byKey = new ConcurrentHashMap<>();
    private final ConcurrentSkipListMap<Long, EffectRecord> inJournalOrder = new ConcurrentSkipListMap<>();
    private final Object countsLock = new Object();
    private final Map<OrderOperation, Integer> perOrderOperation = new HashMap<>();
    private final Map<String, Long> byOperation = new TreeMap<>();
    // Counted under countsLock, so that one snapshot never mixes before and after an apply.
    private long applied;
    private long appliedTwice;
    private long replayedSequence;
    private LedgerJournal journal;

    private EffectLedger() {
        for (int i = 0; i < KEY_STRIPES; i++) {
            keyLocks[i] = new Object();
        }
    }

    static EffectLedger open(Path dataDir) throws IOException {
        EffectLedger ledger = new EffectLedger();
        ledger.journal = LedgerJournal.open(dataDir, ledger::restore);
        LOG.log(Level.INFO, "Effect ledger in {0} holds {1} effects", dataDir, ledger.inJournalOrder.size());
        return ledger;
    }

    /** Applies the effect once per key; a repeated key gets the first effect back, durable before return. */
    ApplyResult apply(String idempotencyKey, String orderId, String operation) throws IOException {
        clearLock.readLock().lock();
        try {
            synchronized (keyLocks[Math.floorMod(idempotencyKey.hashCode(), KEY_STRIPES)]) {
                EffectRecord earlier = byKey.get(idempotencyKey);
                if (earlier != null) {
                    warnIfReused(earlier, orderId, operation);
                    return new ApplyResult(earlier, true);
                }
                EffectRecord effect = new EffectRecord(UUID.randomUUID().toString(), orderId, operation,
                        idempotencyKey, Instant.now());
                long sequence = journal.append(effect);
                // Still holding the key's lock: a repeat of this key must wait until the effect is
                // durable and indexed, so it is never answered from a line that could still be lost.
                journal.awaitDurable(sequence);
                index(sequence, effect, true);
                return new ApplyResult(effect, false);
            }
        } finally {
            clearLock.readLock().unlock();
        }
    }

    /** Whether an effect was applied under this key. */
    boolean holds(String idempotencyKey) {
        return byKey.containsKey(idempotencyKey);
    }

    /** Effects in the order they were applied, optionally only those of one order. */
    List<EffectRecord> effects(String orderIdOrNull) {
        return inJournalOrder.values().stream()
                .filter(effect -> orderIdOrNull == null || effect.orderId().equals(orderIdOrNull))
                .toList();
    }

    LedgerCounts counts() {
        synchronized (countsLock) {
            return new LedgerCounts(applied, appliedTwice, Collections.unmodifiableMap(new TreeMap<>(byOperation)));
        }
    }

    /** Forces of the journal so far (group commit shares them between concurrent applies). */
    long journalForces() {
        return journal.forces();
    }

    void clear() throws IOException {
        clearLock.writeLock().lock();
        try {
            journal.truncate();
            byKey.clear();
            inJournalOrder.clear();
            synchronized (countsLock) {
                perOrderOperation.clear();
                byOperation.clear();
                applied = 0;
                appliedTwice = 0;
            }
        } finally {
            clearLock.writeLock().unlock();
        }
    }

    @Override
    public void close() throws IOException {
        // The write side waits for applies in flight, so none is cut between append and force.
        clearLock.writeLock().lock();
        try {
            journal.close();
        } finally {
            clearLock.writeLock().unlock();
        }
    }

    private void restore(EffectRecord effect) {
        if (byKey.containsKey(effect.idempotencyKey())) {
            throw new IllegalStateException("Effect journal holds idempotency key "
                    + effect.idempotencyKey() + " twice; refusing to start");
        }
        index(replayedSequence++, effect, false);
    }

    /** Adds an effect to the indexes; only a live apply warns, a restart already warned back then. */
    private void index(long sequence, EffectRecord effect, boolean live) {
        byKey.put(effect.idempotencyKey(), effect);
        inJournalOrder.put(sequence, effect);
        synchronized (countsLock) {
            applied++;
            int applications = perOrderOperation.merge(
                    new OrderOperation(effect.orderId(), effect.operation()), 1, Integer::sum);
            if (applications == 2) {
                appliedTwice++;
            }
            if (applications >= 2 && live) {
                LOG.log(Level.WARNING, "Order {0} got {1} applied more than once (key {2})",
                        effect.orderId(), effect.operation(), effect.idempotencyKey());
            }
            byOperation.merge(effect.operation(), 1L, Long::sum);
        }
    }

    private static void warnIfReused(EffectRecord earlier, String orderId, String operation) {
        if (!earlier.sameRequestAs(orderId, operation)) {
            LOG.log(Level.WARNING,
                    "Idempotency key {0} reused for {1}/{2}; answering with its first effect ({3}/{4})",
                    earlier.idempotencyKey(), orderId, operation, earlier.orderId(), earlier.operation());
        }
    }

    private record OrderOperation(String orderId, String operation) {
    }
}
