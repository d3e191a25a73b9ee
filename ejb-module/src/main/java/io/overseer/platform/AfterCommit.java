package io.overseer.platform;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a transaction gathers for after its commit: the courier's parcels, the scheduler's admitted orders'
 * contents. Handed on together, once, when it commits; dropped if it rolls back, so nothing leaves or is
 * kept that the state store does not record.
 */
public final class AfterCommit {

    private AfterCommit() {
    }

    /**
     * Adds {@code item} to the current transaction's list under {@code key}; the first item registers
     * {@code onCommit}, which then receives every item added under that key in this transaction.
     */
    @SuppressWarnings("unchecked")
    public static <T> void add(TransactionSynchronizationRegistry transactions, Object key, T item, Consumer<List<T>> onCommit) {
        List<T> gathered = (List<T>) transactions.getResource(key);
        if (gathered == null) {
            List<T> created = new ArrayList<>();
            transactions.putResource(key, created);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    // nothing is due before the outcome is known
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        onCommit.accept(created);
                    }
                }
            });
            gathered = created;
        }
        gathered.add(item);
    }
}
