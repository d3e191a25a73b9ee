package io.overseer.scheduler;

import java.util.List;
import java.util.function.ToIntFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How the pollers claim what they found: the whole batch in one transaction; if that fails, each order in
 * a transaction of its own, so that one order that cannot be claimed never holds up the others. An order
 * that still fails is logged and left for the next poll.
 */
final class BatchClaims {

    private BatchClaims() {
    }

    /** @return how many were claimed */
    static int claim(List<String> orderIds, ToIntFunction<List<String>> claim, Logger log, String what) {
        try {
            return claim.applyAsInt(orderIds);
        } catch (RuntimeException batchFailure) {
            int claimed = 0;
            for (String orderId : orderIds) {
                try {
                    claimed += claim.applyAsInt(List.of(orderId));
                } catch (RuntimeException e) {
                    log.log(Level.WARNING, "Could not claim " + what + " order " + orderId + "; the next poll tries again", e);
                }
            }
            return claimed;
        }
    }
}
