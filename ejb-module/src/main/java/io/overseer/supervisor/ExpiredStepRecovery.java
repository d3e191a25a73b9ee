package io.overseer.supervisor;

import io.overseer.notification.AlertPublisher;
import io.overseer.platform.Clocks;
import io.overseer.scheduler.DispatchQueue;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.StateStore;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Recovers one expired order in its own transaction, so one bad row never stops a sweep. The order is
 * re-checked under its row lock: a reply that completed it since the sweep read it wins. The supervisor
 * does not run the step itself; it asks a scheduler to, through the order queue.
 */
@Stateless
public class ExpiredStepRecovery {

    private static final Logger LOG = Logger.getLogger(ExpiredStepRecovery.class.getName());

    @Inject
    StateStore store;
    @Inject
    RecoveryPolicy policy;
    @Inject
    SupervisorSettings settings;
    @Inject
    DispatchQueue dispatchQueue;
    @Inject
    AlertPublisher alerts;
    @Inject
    Clocks clocks;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void recover(String orderId) {
        var now = clocks.now();
        OrderState state = store.lock(orderId).orElse(null);
        if (state == null || !state.isExpired(now)) {
            return;
        }
        switch (policy.onExpired(state.failuresIncludingExpiry())) {
            case RETRY -> {
                state.expireAndRetry(now, now.plus(settings.retryCompleteBy()));
                dispatchQueue.announce(orderId);
                LOG.log(Level.INFO, "Order {0} expired; back to Pending (failure {1})",
                        new Object[] {orderId, state.failureCount()});
            }
            case GIVE_UP -> {
                state.expireAndGiveUp(now);
                LOG.log(Level.INFO, "Order {0} expired {1} times; Error", new Object[] {orderId, state.failureCount()});
                alerts.raise(orderId, "gave-up", state.lastError());
            }
        }
    }
}
